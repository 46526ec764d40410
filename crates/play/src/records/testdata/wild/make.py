#!/usr/bin/env python3
"""Writes the records-from-the-wild corpus (issue 17) and its expectations.

The games are made here, not taken from anywhere: random legal games, their moves and
coordinates given by python-chess and pyffish (Fairy-Stockfish's rules) so that the expected
coordinates do not come from Qi's own code. Each record is then written the way a program
players use writes it (lichess, ChessBase, xqbase, PlayOK, dpxq's DhtmlXQ, Gomocup...), in the
encoding that program uses. `expected.txt` says, for each file and game, the encoding the
reader must find and the moves it must read, in coordinates.

Run from this directory: python3 make.py   (pip install chess pyffish)
"""
import random

import chess
import chess.pgn
import pyffish as sf

OUT = {}
EXPECT = []


def put(name, text, encoding, games):
    """A corpus file: its text, encoding, and per game the expected coordinates."""
    data = text.encode(encoding) if encoding != "utf-16" else b"\xff\xfe" + text.encode("utf-16-le")
    OUT[name] = data
    label = {"utf-8": "UTF-8", "gbk": "gb18030", "big5": "Big5", "cp1252": "windows-1252",
             "utf-16": "UTF-16LE", "ascii": "UTF-8"}[encoding]
    for index, moves in enumerate(games):
        EXPECT.append(f"{name} {index + 1} {label}: {' '.join(moves)}")


# ---------------------------------------------------------------- chess
def chess_game(seed, plies):
    rng = random.Random(seed)
    board = chess.Board()
    moves = []
    for _ in range(plies):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves


def san_line(moves, board=None, start_number=1):
    board = board or chess.Board()
    out = []
    for move in moves:
        if board.turn == chess.WHITE:
            out.append(f"{board.fullmove_number}.")
        out.append(board.san(move))
        board.push(move)
    return out


g1 = chess_game(1, 40)
words = san_line(g1)
# lichess study style: comments with commands, a variation, NAGs, a stray backslash before one.
alt = chess.Board()
for m in g1[:5]:
    alt.push(m)
alt_moves = [m for m in sorted(alt.legal_moves, key=lambda m: m.uci()) if m != g1[5]][:1]
alt_san = alt.san(alt_moves[0])
study = (
    '[Event "Study: Random openings"]\n[Site "https://lichess.org/study/AbCdEfGh"]\n'
    '[Result "*"]\n[Annotator "qi-test"]\n[UTCDate "2026.11.20"]\n\n'
    "{ [%cal Ge2e4,Rd7d5] A start. } "
    + " ".join(words[:9])
    + f" ( 3... {alt_san} $6 {{ worse }} ) "
    + " ".join(words[9:14]) + " \\$14 { [%clk 0:05:00] } " + " ".join(words[14:20])
    + " | " + " ".join(words[20:]) + " *\n"
)
g2 = chess_game(2, 24)
study += '\n[Event "Study: Second chapter"]\n[Result "*"]\n\n' + " ".join(san_line(g2)) + " *\n"
put("chess-lichess-study.pgn", study, "utf-8", [[m.uci() for m in g1], [m.uci() for m in g2]])

# ChessBase style, Windows-1252, CRLF: zero castling, a promotion without '=', an over-specified
# knight, an assessment standing apart.
cb_moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0", "Nf6", "d3", "d6", "Nb1c3", "0-0"]
board = chess.Board()
uci = []
for word in cb_moves:
    move = board.parse_san(word.replace("0-0", "O-O").replace("Nb1c3", "Nc3"))
    uci.append(move.uci())
    board.push(move)
cb = ("[Event \"Réti Memorial\"]\r\n[Site \"Bratislava\"]\r\n[White \"Nimzowitsch, Aron\"]\r\n"
      "[Black \"Réti, Richard\"]\r\n[Result \"1/2-1/2\"]\r\n[ECO \"C50\"]\r\n\r\n"
      "1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.0-0 Nf6 5.d3 d6 6.Nb1c3 0-0 ± {Manöver} 1/2-1/2\r\n\r\n"
      "[Event \"Endspiel\"]\r\n[SetUp \"1\"]\r\n[FEN \"8/4P1k1/8/8/8/8/5K2/8 w - - 0 1\"]\r\n"
      "[Result \"1-0\"]\r\n\r\n1.e8Q Kh6 2.Qg8 1-0\r\n")
put("chess-chessbase-1252.pgn", cb, "cp1252", [uci, ["e7e8q", "g7h6", "e8g8"]])

# Three games in UTF-16 with its mark (as some Windows editors save).
games3 = [chess_game(10 + i, 12) for i in range(3)]
text = ""
for i, g in enumerate(games3):
    text += (f'[Event "Klub {i + 1}"]\n[White "Đặng"]\n[Black "Lê"]\n[Result "*"]\n\n'
             + " ".join(san_line(g)) + " *\n\n")
put("chess-three-utf16.pgn", text, "utf-16", [[m.uci() for m in g] for g in games3])

# ---------------------------------------------------------------- xiangqi
START = sf.start_fen("xiangqi")


def xiangqi_game(seed, plies, want_tandem):
    for s in range(seed, seed + 5000):
        rng = random.Random(s)
        moves, wxf = [], []
        for _ in range(plies):
            legal = sorted(sf.legal_moves("xiangqi", START, moves))
            if not legal:
                break
            move = rng.choice(legal)
            fen = sf.get_fen("xiangqi", START, moves)
            wxf.append(sf.get_san("xiangqi", fen, move, False, sf.NOTATION_XIANGQI_WXF))
            moves.append(move)
        tandem = sum(1 for w in wxf if w[0] in "+-" or w[1] in "+-")
        if len(moves) == plies and tandem >= want_tandem:
            return moves, wxf
    raise SystemExit("no game")


RED = "一二三四五六七八九"
FULL = "１２３４５６７８９"
SIMPLE = {"K": "帅将", "A": "仕士", "E": "相象", "H": "马马", "R": "车车", "C": "炮炮", "P": "兵卒"}
TRAD = {"K": "帥將", "A": "仕士", "E": "相象", "H": "傌馬", "R": "車車", "C": "炮砲", "P": "兵卒"}


def chinese(wxf, red, traditional, ascii_digits):
    """WXF as Chinese notation, written here independently of Qi."""
    names = TRAD if traditional else SIMPLE
    side = 0 if red else 1
    digit = (lambda d: RED[int(d) - 1]) if red else (
        (lambda d: d) if ascii_digits else (lambda d: FULL[int(d) - 1]))
    w = wxf
    if w[1] in "+-" and w[0] in names:  # R++5: front chariot
        w = w[1] + w[0] + w[2:]
    head = w[:2]
    if head[0] in "+-":
        where = {"+": "前", "-": ("後" if traditional else "后")}[head[0]]
        first = where + names[head[1]][side]
    else:
        first = names[head[0]][side] + digit(head[1])
    action = {"+": "進" if traditional else "进", "-": "退", "=": "平", ".": "平"}[w[2]]
    return first + action + digit(w[3])


xq_moves, xq_wxf = xiangqi_game(13, 70, 3)


def numbered(words):
    out = []
    for i, w in enumerate(words):
        if i % 2 == 0:
            out.append(f"{i // 2 + 1}.")
        out.append(w)
    return out


zh = [chinese(w, i % 2 == 0, False, False) for i, w in enumerate(xq_wxf)]
xqbase = ('[Game "Chinese Chess"]\n[Event "全国象棋个人赛"]\n[Site "北京"]\n[Date "2026.11.20"]\n'
          '[Red "林小红"]\n[Black "陈大黑"]\n[Result "*"]\n[Opening "顺炮"]\n\n'
          + "\n".join(" ".join(numbered(zh)[i:i + 6]) for i in range(0, len(numbered(zh)), 6))
          + "\n*\n")
put("xiangqi-xqbase-gbk.pgn", xqbase, "gbk", [xq_moves])

trad = [chinese(w, i % 2 == 0, True, True) for i, w in enumerate(xq_wxf)]
big5 = ('[Game "Chinese Chess"]\n[Event "台北棋會"]\n[Red "林"]\n[Black "陳"]\n[Result "*"]\n\n'
        + " ".join(numbered(trad)) + " *\n")
put("xiangqi-traditional-big5.pgn", big5, "big5", [xq_moves])

lines = []
for i in range(0, len(xq_wxf), 2):
    pair = xq_wxf[i:i + 2]
    lines.append(f"{i // 2 + 1:3d}. {pair[0]:<10}{pair[1] if len(pair) > 1 else ''}".rstrip())
playok = ("FORMAT          WXF\nGAME            PlayOK xiangqi #123456\nRED             lin_red;1612;\n"
          "BLACK           chen_black;1580;\nDATE            2026.11.20\nRESULT          *\nSTART{\n"
          + "\n".join(lines) + "\n}END\n")
put("xiangqi-playok-wxf.txt", playok, "ascii", [xq_moves])


def iccs(move):
    """b3g3 as ICCS B2-G2 (ranks from 0)."""
    import re
    f1, r1, f2, r2 = re.match(r"([a-i])(\d+)([a-i])(\d+)", move).groups()
    return f"{f1.upper()}{int(r1) - 1}-{f2.upper()}{int(r2) - 1}"


ic = [iccs(m) for m in xq_moves[:40]]
iccs_pgn = ('[Game "Chinese Chess"]\n[Event "ElephantEye self-play, a long event name that a tool\n'
            'wrapped"]\n[Format "ICCS"]\n[Result "*"]\n\n' + " ".join(numbered(ic)) + " *\n")
put("xiangqi-iccs.pgn", iccs_pgn, "ascii", [xq_moves[:40]])


def dhtml(move):
    import re
    f1, r1, f2, r2 = re.match(r"([a-i])(\d+)([a-i])(\d+)", move).groups()
    return f"{ord(f1) - 97}{10 - int(r1)}{ord(f2) - 97}{10 - int(r2)}"


main = "".join(dhtml(m) for m in xq_moves[:30])
# A variation replacing the 3rd move: another legal move there.
legal3 = sorted(m for m in sf.legal_moves("xiangqi", START, xq_moves[:2]) if m != xq_moves[2])
var = dhtml(legal3[0])
page = ("<html><body><p>对局欣赏：</p>\n<div>[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n"
        "[DhtmlXQ_title]顺炮横车对直车[/DhtmlXQ_title]\n[DhtmlXQ_event]全国赛[/DhtmlXQ_event]\n"
        "[DhtmlXQ_red]林小红[/DhtmlXQ_red]\n[DhtmlXQ_black]陈大黑[/DhtmlXQ_black]\n"
        "[DhtmlXQ_result]红胜[/DhtmlXQ_result]\n"
        "[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]\n"
        f"[DhtmlXQ_movelist]{main}[/DhtmlXQ_movelist]\n"
        "[DhtmlXQ_comment1]开局||第二行[/DhtmlXQ_comment1]\n"
        f"[DhtmlXQ_move_0_3_1]{var}[/DhtmlXQ_move_0_3_1]\n"
        "[DhtmlXQ_comment1_3]变着[/DhtmlXQ_comment1_3]\n[/DhtmlXQ]</div></body></html>\n")
put("xiangqi-dhtmlxq-gbk.htm", page, "gbk", [xq_moves[:30]])

put("xiangqi-fen-short.txt", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r\n",
    "ascii", [[]])

# ---------------------------------------------------------------- gomoku
def five(stones, x, y):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            k = 1
            while (x + s * k * dx, y + s * k * dy) in stones:
                n += 1
                k += 1
        if n >= 5:
            return True
    return False


def gomoku_game(seed, count, size=15):
    rng = random.Random(seed)
    taken = {}
    order = []
    while len(order) < count:
        x, y = 7 + rng.randint(-4, 4), 7 + rng.randint(-4, 4)
        if (x, y) in taken:
            continue
        colour = len(order) % 2
        mine = {p for p, c in taken.items() if c == colour}
        if five(mine | {(x, y)}, x, y):
            continue
        taken[(x, y)] = colour
        order.append((x, y))
    return order


def point(x, y):  # x, y from 0; y counts ranks from the bottom
    return f"{chr(97 + x)}{y + 1}"


gm = gomoku_game(5, 24)
coords = [point(x, y) for x, y in gm]
words = []
for i, c in enumerate(coords):
    if i % 2 == 0:
        words.append(f"{i // 2 + 1}.")
    words.append(c)
# PlayOK's swap: the colour choice after the third stone takes a slot of the numbering.
words.insert(5, "black")
playok_g = ('[Event "#98765"]\n[Site "www.playok.com"]\n[Date "2026.11.20"]\n[White "anh"]\n'
            '[Black "binh"]\n[Result "*"]\n[GameType "61,15"]\n\n' + " ".join(words) + " *\n")
# Read under swap, the choice is a move of its own.
put("gomoku-playok.pgn", playok_g, "ascii", [coords[:3] + ["black"] + coords[3:]])

# Gomocup's psq: x, y from 1, y from the top.
psq = "Piskvorky 15x15, 11:11, 0\n" + "".join(f"{x + 1},{15 - y},{100 * (i % 7)}\n" for i, (x, y) in enumerate(gm)) + "-1\nrapfi.exe\nqi\n"
put("gomoku-gomocup.psq", psq, "ascii", [coords])
pairs = " ".join(f"{x + 1},{15 - y}" for x, y in gm)
put("gomoku-pairs.txt", pairs + "\n", "ascii", [coords])
put("gomoku-moves.txt", " ".join(coords) + "\n", "ascii", [coords])

for name, data in OUT.items():
    with open(name, "wb") as f:
        f.write(data)
with open("expected.txt", "w") as f:
    f.write("# file game encoding: moves in coordinates (written by make.py)\n")
    f.write("\n".join(EXPECT) + "\n")
