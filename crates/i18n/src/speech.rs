//! Moves in words, for the page's live region (what a screen reader says after each move):
//! "White knight takes e5, check", "红方 炮二平五", "Red flips c3: black cannon", "Black h8".
//! Built from the game before and after the move, so it says what was captured and what a
//! flip revealed, in the player's language.

use qi_rules::any::{AnyGame, AnyMove};
use qi_rules::gomoku::GomokuMove;
use qi_rules::{Cell, GameKind, Side};

use crate::text::{Lang, Text, fill, pick, piece_name, role_name, side_name, t};

/// The last move of `game` in words, in `lang`; `None` before the first move.
#[must_use]
pub fn last_move_words(lang: Lang, game: &AnyGame) -> Option<String> {
    let mut before = game.clone();
    let mv = before.undo_move()?;
    Some(move_words(lang, &before, mv, game))
}

/// `mv`, played in `before` to give `after`, in words.
#[must_use]
pub fn move_words(lang: Lang, before: &AnyGame, mv: AnyMove, after: &AnyGame) -> String {
    let kind = before.kind();
    let mover = before.side_to_move();
    let side = side_words(lang, before, after, mover);
    let name = |game: &AnyGame, cell: Cell| {
        game.piece_code(cell).map(|code| piece_name(lang, kind, &code)).unwrap_or_default()
    };
    let mut text = match mv {
        AnyMove::Chess(_) => {
            let san = before.move_notation(mv);
            format!("{side} {}", chess_words(lang, &san))
        }
        AnyMove::Xiangqi(_) if lang == Lang::Zh => {
            let text = before.move_text(mv);
            let chinese = before.chinese_notation(&text).unwrap_or(text);
            format!("{side} {chinese}")
        }
        AnyMove::Xiangqi(_) | AnyMove::Banqi(qi_rules::banqi::BanqiMove::Step { .. }) => {
            let cells = after
                .last_move()
                .unwrap_or(qi_rules::MoveCells { from: None, to: Cell::new(0, 0) });
            let from = cells.from.unwrap_or(cells.to);
            // The mover's piece by what it is (its side is said first), the captured one whole.
            let piece = before
                .piece_code(from)
                .map(|code| role_name(lang, kind, &code))
                .unwrap_or_default();
            let captured = name(before, cells.to);
            let mut words = if captured.is_empty() {
                fill(
                    &fill(
                        pick(
                            lang,
                            [
                                "{piece} {from} to {to}",
                                "{piece} {from} 到 {to}",
                                "{piece} {from} đến {to}",
                            ],
                        ),
                        "piece",
                        piece,
                    ),
                    "from",
                    &from.to_string(),
                )
            } else {
                let template = pick(
                    lang,
                    [
                        "{piece} {from} takes {captured} on {to}",
                        "{piece} {from} 吃 {to} {captured}",
                        "{piece} {from} ăn {captured} ở {to}",
                    ],
                );
                fill(
                    &fill(&fill(template, "piece", piece), "from", &from.to_string()),
                    "captured",
                    &captured,
                )
            };
            words = fill(&words, "to", &cells.to.to_string());
            format!("{side} {words}")
        }
        AnyMove::Banqi(qi_rules::banqi::BanqiMove::Flip(cell)) => {
            let template = pick(
                lang,
                [
                    "{side} flips {cell}: {piece}",
                    "{side} 翻开 {cell}：{piece}",
                    "{side} lật {cell}: {piece}",
                ],
            );
            fill(
                &fill(&fill(template, "side", &side), "cell", &cell.to_string()),
                "piece",
                &name(after, cell),
            )
        }
        AnyMove::Banqi(qi_rules::banqi::BanqiMove::Stop) => {
            format!("{side} {}", t(lang, Text::EndChain))
        }
        AnyMove::Gomoku(GomokuMove::Stone(cell)) => {
            // The stone's own colour (an opening may have the seats hold either).
            let colour = match after.piece_code(cell).as_deref() {
                Some("w") => side_name(lang, GameKind::Gomoku, Side::Second, None),
                _ => side_name(lang, GameKind::Gomoku, Side::First, None),
            };
            format!("{colour} {cell}")
        }
        AnyMove::Gomoku(GomokuMove::Take(colour)) => {
            let words =
                t(lang, if colour == Side::First { Text::TakeBlack } else { Text::TakeWhite });
            format!("{side}: {words}")
        }
        AnyMove::Gomoku(GomokuMove::Declare(count)) => {
            format!("{side}: {}", fill(t(lang, Text::OfferCount), "n", &count.to_string()))
        }
        AnyMove::Gomoku(GomokuMove::Offer(cell)) => {
            format!("{side}: {}", fill(t(lang, Text::OfferMove), "point", &cell.to_string()))
        }
    };
    // Chess says check in its notation; xiangqi in words.
    if kind == GameKind::Xiangqi && after.checked_king().is_some() {
        text.push_str(pick(lang, [", check", "，将军", ", chiếu"]));
    }
    text
}

/// The name of the side that moved: banqi's by the colour it plays once known, gomoku's by the
/// colour it holds.
fn side_words(lang: Lang, before: &AnyGame, after: &AnyGame, mover: Side) -> String {
    let kind = before.kind();
    let side = match after {
        AnyGame::Gomoku(game) => game.colour_of(mover),
        _ => mover,
    };
    let banqi_red = match after {
        AnyGame::Banqi(game) => game.colour_of(mover).map(|c| c == qi_rules::banqi::Colour::Red),
        _ => None,
    };
    side_name(lang, kind, side, banqi_red).to_owned()
}

/// A chess move's SAN (`Nxe5+`, `O-O`, `exd8=Q#`) in words: "knight takes e5, check".
fn chess_words(lang: Lang, san: &str) -> String {
    let check = if san.ends_with('#') {
        pick(lang, [", checkmate", "，将死", ", chiếu hết"])
    } else if san.ends_with('+') {
        pick(lang, [", check", "，将军", ", chiếu"])
    } else {
        ""
    };
    let bare = san.trim_end_matches(['+', '#']);
    if bare.starts_with("O-O-O") {
        return format!(
            "{}{check}",
            pick(lang, ["castles queenside", "长易位", "nhập thành cánh hậu"])
        );
    }
    if bare.starts_with("O-O") {
        return format!(
            "{}{check}",
            pick(lang, ["castles kingside", "短易位", "nhập thành cánh vua"])
        );
    }
    let (body, promotion) = match bare.split_once('=') {
        Some((body, piece)) => (body, piece.chars().next()),
        None => (bare, None),
    };
    let role = body.chars().next().filter(char::is_ascii_uppercase).unwrap_or('P');
    // The role alone, not "white knight": the side is said before.
    let piece = role_name(lang, GameKind::Chess, &format!("w{role}"));
    let target = body.get(body.len().saturating_sub(2)..).unwrap_or(body);
    let verb = if body.contains('x') {
        pick(lang, ["takes", "吃", "ăn"])
    } else {
        pick(lang, ["to", "到", "đến"])
    };
    let mut words = format!("{piece} {verb} {target}");
    if let Some(letter) = promotion {
        let promoted = crate::text::promotion_name(lang, letter.to_ascii_lowercase());
        words.push_str(&fill(
            pick(lang, [", promotes to {piece}", "，升变为{piece}", ", phong {piece}"]),
            "piece",
            promoted,
        ));
    }
    words.push_str(check);
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::any::StartFrom;

    fn after(kind: &str, rules: &str, moves: &[&str]) -> AnyGame {
        let mut game = AnyGame::new(kind, rules, &StartFrom::Start { seed: 0 }).unwrap();
        for mv in moves {
            game.play(mv).unwrap();
        }
        game
    }

    fn said(lang: Lang, game: &AnyGame) -> String {
        last_move_words(lang, game).unwrap()
    }

    #[test]
    fn chess_moves_are_said_with_captures_checks_and_castling() {
        let game = after("chess", "", &["e2e4", "d7d5", "e4d5"]);
        assert_eq!(said(Lang::En, &game), "White pawn takes d5");
        let game = after("chess", "", &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "g8f6", "e1g1"]);
        assert_eq!(said(Lang::En, &game), "White castles kingside");
        assert_eq!(said(Lang::Vi, &game), "Trắng nhập thành cánh vua");
        let game = after("chess", "", &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(said(Lang::En, &game), "Black queen to h4, checkmate");
        assert_eq!(said(Lang::Zh, &game), "黑方 后 到 h4，将死");
        let game = after("chess", "", &["g1f3"]);
        assert_eq!(said(Lang::En, &game), "White knight to f3");
        assert_eq!(last_move_words(Lang::En, &after("chess", "", &[])), None);
    }

    #[test]
    fn xiangqi_is_said_in_chinese_notation_or_in_words() {
        let game = after("xiangqi", "", &["h3e3"]);
        assert_eq!(said(Lang::Zh, &game), "红方 炮二平五");
        assert_eq!(said(Lang::En, &game), "Red cannon h3 to e3");
        let game = after("xiangqi", "", &["h3e3", "h10g8", "e3e7"]);
        assert_eq!(said(Lang::En, &game), "Red cannon e3 takes black soldier on e7");
    }

    /// Words every language must use for a kind of move.
    const TAKES: [&str; 3] = ["takes", "吃", "ăn"];
    const CHECK: [&str; 3] = ["check", "将", "chiếu"];

    /// Checks the words of the last move of `game` in every language: the mover's name in that
    /// language, the destination, and the words of its kind (`extra`, by language).
    fn said_everywhere(game: &AnyGame, to: &str, extra: &[[&str; 3]]) {
        let mut before = game.clone();
        let mover = before.undo_move().map(|_| before.side_to_move()).expect("a move");
        for (i, lang) in [Lang::En, Lang::Zh, Lang::Vi].into_iter().enumerate() {
            let words = said(lang, game);
            let side = side_words(lang, &before, game, mover);
            assert!(words.contains(&side) || words.contains(to), "{lang:?}: {words}");
            // Xiangqi in 简体中文 is its own notation (炮二平五): no squares, no "takes".
            if lang == Lang::Zh && game.kind() == GameKind::Xiangqi {
                assert!(words.starts_with(&side) && !words.is_ascii(), "{words}");
                continue;
            }
            assert!(words.contains(to), "{lang:?}: {to} in {words}");
            for kind in extra {
                assert!(words.contains(kind[i]), "{lang:?}: {} in {words}", kind[i]);
            }
        }
    }

    #[test]
    fn every_kind_of_move_is_said_in_every_language() {
        // Chess: quiet, capture, castling, promotion, check and mate.
        said_everywhere(&after("chess", "", &["g1f3"]), "f3", &[]);
        said_everywhere(&after("chess", "", &["e2e4", "d7d5", "e4d5"]), "d5", &[TAKES]);
        said_everywhere(
            &after("chess", "", &["e2e4", "e7e5", "d1h5", "b8c6", "h5f7"]),
            "f7",
            &[TAKES, CHECK],
        );
        let castle = after("chess", "", &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]);
        for (lang, word) in [(Lang::En, "kingside"), (Lang::Zh, "短易位"), (Lang::Vi, "cánh vua")]
        {
            assert!(said(lang, &castle).contains(word), "{}", said(lang, &castle));
        }
        let mut promoting =
            AnyGame::new("chess", "", &StartFrom::Position("8/P6k/8/8/8/8/8/K7 w - - 0 1"))
                .unwrap();
        promoting.play("a7a8q").unwrap();
        for (lang, word) in
            [(Lang::En, "promotes to Queen"), (Lang::Zh, "升变为后"), (Lang::Vi, "phong Hậu")]
        {
            assert!(said(lang, &promoting).contains(word), "{}", said(lang, &promoting));
        }
        // Xiangqi: quiet, capture; check (the chariot down the open file at the general).
        said_everywhere(&after("xiangqi", "", &["h3e3"]), "e3", &[]);
        said_everywhere(&after("xiangqi", "", &["h3e3", "h10g8", "e3e7"]), "e7", &[TAKES]);
        let mut check =
            AnyGame::new("xiangqi", "", &StartFrom::Position("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"))
                .unwrap();
        check.play("a1a10").unwrap();
        said_everywhere(&check, "a10", &[CHECK]);
        // Banqi: a flip, a step, a capture, a chain's end; found by playing on from a deal.
        let mut banqi =
            AnyGame::new("banqi", "chain=true", &StartFrom::Start { seed: 11 }).unwrap();
        let (mut stepped, mut captured, mut stopped) = (false, false, false);
        let target = |mv: &str| mv.split_once('-').and_then(|(_, to)| to.parse::<Cell>().ok());
        for turn in 0..400 {
            let moves = banqi.legal_moves();
            if moves.is_empty() {
                break;
            }
            let takes = |m: &String| target(m).is_some_and(|to| banqi.piece_code(to).is_some());
            let pick = moves
                .iter()
                .find(|m| takes(m))
                .or_else(|| moves.iter().find(|m| *m == "stop" && !stopped))
                .or_else(|| moves.iter().find(|m| target(m).is_some() && !stepped))
                .or_else(|| moves.get(turn * 7 % moves.len()))
                .cloned()
                .expect("a move");
            let capture = takes(&pick);
            banqi.play(&pick).unwrap();
            match target(&pick) {
                Some(to) if capture => {
                    captured = true;
                    said_everywhere(&banqi, &to.to_string(), &[TAKES]);
                }
                Some(to) => {
                    stepped = true;
                    said_everywhere(&banqi, &to.to_string(), &[]);
                }
                None if pick == "stop" => {
                    stopped = true;
                    assert!(said(Lang::Vi, &banqi).contains("Dừng"), "{}", said(Lang::Vi, &banqi));
                }
                None => said_everywhere(&banqi, &pick, &[]),
            }
            if banqi.outcome().is_some() || (stepped && captured && stopped) {
                break;
            }
        }
        assert!(stepped && captured, "a step and a capture were said");
        // Gomoku: a stone, a colour choice, Soosõrv-8's declaration and offer.
        said_everywhere(&after("gomoku", "", &["h8"]), "h8", &[]);
        let soosorv = after(
            "gomoku",
            "rule=renju,opening=soosorv8",
            &["h8", "i9", "j10", "white", "a1", "offers=2", "black", "offer=g9"],
        );
        said_everywhere(&soosorv, "g9", &[]);
    }

    #[test]
    fn banqi_flips_say_what_they_revealed_and_gomoku_says_the_stone() {
        let mut game = AnyGame::new("banqi", "", &StartFrom::Start { seed: 3 }).unwrap();
        game.play("a1").unwrap();
        let revealed = game.piece_code(Cell::new(0, 0)).unwrap();
        let words = said(Lang::En, &game);
        assert!(words.contains("flips a1: "), "{words}");
        assert!(words.ends_with(&piece_name(Lang::En, GameKind::Banqi, &revealed)), "{words}");
        let game = after("gomoku", "", &["h8", "i9"]);
        assert_eq!(said(Lang::En, &game), "White i9");
        assert_eq!(said(Lang::Zh, &game), "白方 i9");
        let game = after("gomoku", "opening=swap", &["h8", "i9", "j10", "white"]);
        assert_eq!(said(Lang::En, &game), "White: Take white");
    }
}
