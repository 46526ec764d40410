//! Chinese move notation, as xiangqi books, xqbase and the Chinese rules write it: 炮二平五,
//! 马８进７, 前马退二, 前兵进一, 前三进一. Red's files and distances are Chinese numerals, Black's
//! digits (written full-width, as books print them); reading takes either for either side,
//! full-width or ASCII digits, and the traditional characters (車, 馬, 帥, 將, 砲, 進, 後 ...).

use super::board::{Board, Piece, file_of, rank_of, relative_rank};
use super::{Xiangqi, XiangqiMove};
use crate::core::{Game, IllegalMove, IllegalReason, MoveError, ParseMoveError};

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The character of a piece of `side` (0 red, 1 black), in simplified characters.
fn piece_char(side: usize, piece: Piece) -> char {
    match (piece, side) {
        (Piece::General, 0) => '帅',
        (Piece::General, _) => '将',
        (Piece::Advisor, 0) => '仕',
        (Piece::Advisor, _) => '士',
        (Piece::Elephant, 0) => '相',
        (Piece::Elephant, _) => '象',
        (Piece::Horse, _) => '马',
        (Piece::Chariot, _) => '车',
        (Piece::Cannon, _) => '炮',
        (Piece::Soldier, 0) => '兵',
        (Piece::Soldier, _) => '卒',
    }
}

/// A file or a distance (1 to 9) as `side` writes it.
fn number(side: usize, n: u8) -> char {
    let index = usize::from(n.clamp(1, 9) - 1);
    if side == 0 { RED_NUMERALS[index] } else { FULL_WIDTH_DIGITS[index] }
}

/// The file as its player counts it: from their right, 1 to 9.
fn own_file(side: usize, file: u8) -> u8 {
    if side == 0 { 9 - file } else { file + 1 }
}

/// Writes the move from `from` to `to` in Chinese notation.
pub(crate) fn write(board: &Board, from: u8, to: u8) -> String {
    let Some((side, piece)) = board.piece_at(from) else {
        return super::notation::wxf(board, from, to);
    };
    let mut out = designation(board, side, piece, from);
    let forward =
        i32::from(relative_rank(side, rank_of(to))) - i32::from(relative_rank(side, rank_of(from)));
    out.push(match forward {
        0 => '平',
        n if n > 0 => '进',
        _ => '退',
    });
    let straight =
        matches!(piece, Piece::General | Piece::Chariot | Piece::Cannon | Piece::Soldier);
    let n = if straight && forward != 0 {
        forward.unsigned_abs() as u8
    } else {
        own_file(side, file_of(to))
    };
    out.push(number(side, n));
    out
}

/// The first two characters: which piece moves. Two or three like pieces on one file are
/// 前, 中, 后 (front is nearest the enemy); four or five soldiers are counted 一 to 五 from the
/// front; when soldiers stand two or more on several files, the file is named after 前/中/后
/// instead of the piece (前三).
fn designation(board: &Board, side: usize, piece: Piece, from: u8) -> String {
    let name = piece_char(side, piece);
    let file = file_of(from);
    let plain = format!("{name}{}", number(side, own_file(side, file)));
    if matches!(piece, Piece::General | Piece::Advisor | Piece::Elephant) {
        return plain;
    }
    let on_file = |f: u8| -> Vec<u8> {
        let mut squares: Vec<u8> =
            super::notation::pieces_of(board, side, piece).filter(|&sq| file_of(sq) == f).collect();
        super::notation::front_first(side, &mut squares);
        squares
    };
    let tandem = on_file(file);
    let count = tandem.len();
    if count < 2 {
        return plain;
    }
    let index = tandem.iter().position(|&sq| sq == from).unwrap_or(0);
    let place = match (index, count) {
        (0, _) => '前',
        (i, c) if i + 1 == c => '后',
        _ => '中',
    };
    if piece == Piece::Soldier {
        let crowded_files = (0..9).filter(|&f| on_file(f).len() >= 2).count();
        if crowded_files >= 2 {
            return format!("{place}{}", number(side, own_file(side, file)));
        }
        if count >= 4 {
            return format!("{}{name}", RED_NUMERALS[index]);
        }
    }
    format!("{place}{name}")
}

/// `text` with every variant spelling made the one [`write`] uses for `side`, digits and
/// numerals as ASCII digits, and spaces dropped; `None` when a character is not notation.
fn normalize(text: &str, side: usize) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let mapped = match c {
            ' ' | '\u{3000}' => continue,
            '1'..='9' => c,
            '１'..='９' => char::from(b'1' + (c as u32 - '１' as u32) as u8),
            _ if RED_NUMERALS.contains(&c) => {
                let at = RED_NUMERALS.iter().position(|&n| n == c)?;
                char::from(b'1' + at as u8)
            }
            '帅' | '帥' | '将' | '將' => piece_char(side, Piece::General),
            '仕' | '士' => piece_char(side, Piece::Advisor),
            '相' | '象' => piece_char(side, Piece::Elephant),
            '马' | '馬' | '傌' | '碼' => '马',
            '车' | '車' | '俥' | '伡' => '车',
            '炮' | '砲' | '包' => '炮',
            '兵' | '卒' => piece_char(side, Piece::Soldier),
            '进' | '進' => '进',
            '退' => '退',
            '平' => '平',
            '前' => '前',
            '后' | '後' => '后',
            '中' => '中',
            _ => return None,
        };
        out.push(mapped);
    }
    Some(out)
}

/// Reads a move in Chinese notation. A move read but not legal gets the reason the WXF reader
/// gives for the same move.
pub(crate) fn read(game: &Xiangqi, text: &str) -> Result<XiangqiMove, MoveError> {
    let side = game.board.us;
    let syntax = || ParseMoveError::syntax(text, "Chinese notation such as 炮二平五 or 马８进７");
    let wanted = normalize(text, side).ok_or_else(syntax)?;
    let count = wanted.chars().count();
    if !(4..=5).contains(&count) {
        return Err(syntax().into());
    }
    let moves = game.moves_ignoring_outcome();
    for &(from, to) in moves.as_slice() {
        if spellings(&game.board, from, to).contains(&wanted) {
            let mv = XiangqiMove { from, to };
            game.check(mv)?;
            return Ok(mv);
        }
    }
    if game.outcome().is_some() {
        return Err(IllegalMove::new(IllegalReason::GameOver, text).into());
    }
    // Not a legal move: the WXF reader says why, for the same move in its letters.
    match to_wxf(&wanted) {
        Some(wxf) => super::notation::read_wxf(game, &wxf),
        None => Err(syntax().into()),
    }
}

/// Every way books and programs spell the move from `from` to `to`, normalized: the one
/// [`write`] gives and, for a piece with others like it on its file, the other tandem forms in
/// use — the file named as well (前兵九平八, 后马二进三), and three soldiers counted 一二三 from the
/// front as four or five are (二兵平四).
fn spellings(board: &Board, from: u8, to: u8) -> Vec<String> {
    let written = write(board, from, to);
    let Some((side, piece)) = board.piece_at(from) else { return vec![written] };
    let Some(base) = normalize(&written, side) else { return vec![written] };
    let mut all = vec![base.clone()];
    if matches!(piece, Piece::General | Piece::Advisor | Piece::Elephant) {
        return all;
    }
    let file = file_of(from);
    let mut tandem: Vec<u8> =
        super::notation::pieces_of(board, side, piece).filter(|&sq| file_of(sq) == file).collect();
    super::notation::front_first(side, &mut tandem);
    let count = tandem.len();
    if count < 2 {
        return all;
    }
    let index = tandem.iter().position(|&sq| sq == from).unwrap_or(0);
    let mut places = vec![match (index, count) {
        (0, _) => '前',
        (i, c) if i + 1 == c => '后',
        _ => '中',
    }];
    if count >= 3 {
        places.push(char::from(b'1' + index as u8));
    }
    let name = piece_char(side, piece);
    let file_digit = char::from(b'0' + own_file(side, file));
    let action: String = base.chars().skip(2).collect();
    for place in places {
        all.push(format!("{place}{name}{action}"));
        all.push(format!("{place}{name}{file_digit}{action}"));
    }
    all
}

/// The WXF letters of a normalized Chinese move, where WXF has a form for it.
fn to_wxf(normalized: &str) -> Option<String> {
    let letter = |c: char| match c {
        '帅' | '将' => Some('K'),
        '仕' | '士' => Some('A'),
        '相' | '象' => Some('E'),
        '马' => Some('H'),
        '车' => Some('R'),
        '炮' => Some('C'),
        '兵' | '卒' => Some('P'),
        _ => None,
    };
    let chars: Vec<char> = normalized.chars().collect();
    let (first, second) = match (chars[0], chars[1]) {
        ('前', piece) => ('+', letter(piece)?),
        ('后', piece) => ('-', letter(piece)?),
        (piece, digit @ '1'..='9') => (letter(piece)?, digit),
        _ => return None,
    };
    let op = match chars[2] {
        '进' => '+',
        '退' => '-',
        '平' => '=',
        _ => return None,
    };
    chars[3].is_ascii_digit().then(|| format!("{first}{second}{op}{}", chars[3]))
}

impl Xiangqi {
    /// A legal move in Chinese notation (炮二平五); see the [module docs](self).
    #[must_use]
    pub fn chinese_notation(&self, mv: XiangqiMove) -> String {
        write(&self.board, mv.from, mv.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    fn game(moves: &[&str]) -> Xiangqi {
        let mut game = Xiangqi::start(&Default::default(), 0);
        for text in moves {
            let mv = game.read_move(text).unwrap();
            game.apply(mv).unwrap();
        }
        game
    }

    #[test]
    fn the_openings_read_and_write_as_books_print_them() {
        let start = game(&[]);
        let central_cannon = start.read_move("炮二平五").unwrap();
        assert_eq!(start.move_text(central_cannon), "h3e3");
        assert_eq!(start.chinese_notation(central_cannon), "炮二平五");
        let after = game(&["h3e3"]);
        let horse = after.read_move("马８进７").unwrap();
        assert_eq!(after.move_text(horse), "h10g8");
        assert_eq!(after.chinese_notation(horse), "马８进７");
        // Traditional characters, ASCII digits, spaces: the same move.
        assert_eq!(after.read_move("馬 8 進 7").unwrap(), horse);
        assert_eq!(start.read_move("砲二平五").unwrap(), central_cannon);
        assert_eq!(start.read_move("兵七进一").unwrap(), start.read_move("P7+1").unwrap());
    }

    #[test]
    fn tandem_pieces_are_front_and_rear() {
        // Both red horses on file 2 (WXF +H / -H).
        let g =
            Xiangqi::from_position(&Default::default(), "3k5/9/9/9/9/9/9/7N1/7N1/4K4 w - - 0 1")
                .unwrap();
        let legal: Vec<String> =
            g.legal_moves().into_iter().map(|m| g.chinese_notation(m)).collect();
        assert!(legal.iter().any(|n| n.starts_with("前马")), "{legal:?}");
        assert!(legal.iter().any(|n| n.starts_with("后马")), "{legal:?}");
        // The front horse (h3) to g5: 前马进三.
        assert_eq!(g.move_text(g.read_move("前马进三").unwrap()), "h3g5");
        for mv in g.legal_moves() {
            assert_eq!(g.read_move(&g.chinese_notation(mv)).unwrap(), mv);
        }
    }

    #[test]
    fn every_legal_move_of_random_games_reads_back() {
        let mut state = 1_u64;
        for _ in 0..30 {
            let mut g = Xiangqi::start(&Default::default(), 0);
            for _ in 0..80 {
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &mv in &legal {
                    let text = g.chinese_notation(mv);
                    assert_eq!(g.read_move(&text).ok(), Some(mv), "{text} in {}", g.position());
                }
                state = crate::zobrist::splitmix64(state);
                g.apply(legal[(state % legal.len() as u64) as usize]).unwrap();
            }
        }
    }

    #[test]
    fn every_tandem_form_in_use_reads() {
        // Three red soldiers on file e (五), one on c: 前中后 and 一二三 both name them, with or
        // without the file; 前兵五进一 is the front one.
        let g = Xiangqi::from_position(
            &Default::default(),
            "3k5/9/4P4/4P4/4P4/9/6P2/9/9/4K4 w - - 0 1",
        )
        .unwrap();
        let front = g.read_move("e8e9").unwrap();
        for text in ["前兵进一", "一兵进一", "前兵五进一", "一兵五进一", "前兵5进1"]
        {
            assert_eq!(g.read_move(text).ok(), Some(front), "{text}");
        }
        let middle = g.read_move("e7d7").unwrap();
        for text in ["中兵平六", "二兵平六", "中兵五平六", "二兵五平六"] {
            assert_eq!(g.read_move(text).ok(), Some(middle), "{text}");
        }
        let rear = g.read_move("e6f6").unwrap();
        for text in ["后兵平四", "三兵平四", "後兵五平四"] {
            assert_eq!(g.read_move(text).ok(), Some(rear), "{text}");
        }
        // Tandem horses, the file named: 前马二进三.
        let horses =
            Xiangqi::from_position(&Default::default(), "3k5/9/9/9/9/9/9/7N1/7N1/4K4 w - - 0 1")
                .unwrap();
        assert_eq!(horses.move_text(horses.read_move("前马二进三").unwrap()), "h3g5");
        // A file that is not the piece's: no move.
        assert!(horses.read_move("前马三进三").is_err());
    }

    #[test]
    fn bad_chinese_says_why() {
        let start = game(&[]);
        assert!(matches!(start.read_move("炮二平"), Err(MoveError::Parse(_))));
        assert!(matches!(start.read_move("龙二平五"), Err(MoveError::Parse(_))));
        // Read, but the cannon can't go there: the rules' reason, not "unreadable".
        assert!(matches!(start.read_move("炮二进九"), Err(MoveError::Illegal(_))));
    }
}
