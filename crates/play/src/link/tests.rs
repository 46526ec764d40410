use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::{Cell, GameKind, MoveError, Side};

use super::*;
use crate::Path;
use crate::record::{EndedBy, Ending, GameRecord, Start, default_rules};

/// A small seeded generator for random playouts.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, bound: usize) -> usize {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

fn rules(kind: GameKind, changes: &str) -> String {
    AnyGame::new(kind.name(), changes, &StartFrom::Start { seed: 0 }).unwrap().rules_list()
}

/// A record of `plies` random legal moves (fewer if the game ends).
fn random_game(
    kind: GameKind,
    changes: &str,
    start: Start,
    plies: usize,
    rng: &mut Lcg,
) -> GameRecord {
    let mut record = GameRecord::from_parts(kind, rules(kind, changes), start, Vec::new());
    let mut game = record.start_game();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())].clone();
        game.play(&mv).unwrap();
        record.moves.push(mv);
    }
    record
}

fn open(query: &str) -> LinkGame {
    read(&Query::parse(query), GameKind::Chess).expect("a game")
}

fn assert_same_game(a: &GameRecord, b: &GameRecord) {
    assert_eq!(a.kind, b.kind);
    let seed_of = |record: &GameRecord| match record.start {
        Start::Seed(seed) => Some(link_seed(record, seed)),
        Start::Position(_) => None,
    };
    assert_eq!(seed_of(a), seed_of(b));
    if let Start::Position(_) = a.start {
        assert_eq!(a.start, b.start);
    }
    assert_eq!(a.moves, b.moves);
    let (ga, gb) = (a.replay(usize::MAX).game, b.replay(usize::MAX).game);
    assert_eq!(ga.position(), gb.position());
    assert_eq!(ga.rules_list(), gb.rules_list());
    assert_eq!(ga.side_to_move(), gb.side_to_move());
    assert_eq!(a.ending, b.ending, "the same result");
}

#[test]
fn random_games_of_every_kind_survive_both_forms() {
    let mut rng = Lcg(7);
    let setups: [(GameKind, &str); 11] = [
        (GameKind::Chess, ""),
        (GameKind::Chess, "variant=chess960"),
        (GameKind::Xiangqi, ""),
        (GameKind::Banqi, ""),
        (GameKind::Banqi, "chain=true,capture_hidden=true"),
        (GameKind::Gomoku, ""),
        (GameKind::Gomoku, "size=19,rule=renju"),
        (GameKind::Gomoku, "rule=standard"),
        (GameKind::Gomoku, "size=20,rule=caro"),
        (GameKind::Gomoku, "opening=swap2"),
        (GameKind::Gomoku, "rule=renju,opening=soosorv8"),
    ];
    for round in 0..12u64 {
        for (kind, changes) in setups {
            let seed = if round % 3 == 0 { 0 } else { round * 977 };
            let mut record =
                random_game(kind, changes, Start::Seed(seed), 40 + 30 * round as usize, &mut rng);
            // Some games the moves leave open ended otherwise; the link says how.
            if round % 2 == 1 && record.replay(usize::MAX).game.outcome().is_none() {
                let endings = [
                    Ending { winner: Some(Side::First), by: EndedBy::Resignation },
                    Ending { winner: Some(Side::Second), by: EndedBy::Time },
                    Ending { winner: None, by: EndedBy::Agreement },
                    Ending { winner: None, by: EndedBy::Recorded },
                ];
                record.ending = Some(endings[rng.below(endings.len())]);
            }
            let view =
                View { orientation: Some(Side::Second), at: Some(Path::main(round as usize)) };
            for query in [readable(&record, &view), compact(&record, &view)] {
                let link = open(&query);
                assert_eq!(link.error, None, "{query}");
                assert_same_game(&record, &link.record);
                assert_eq!(link.view, view, "{query}");
            }
        }
    }
}

#[test]
fn games_from_a_position_survive_both_forms() {
    let mut rng = Lcg(11);
    for (kind, position) in [
        (GameKind::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        (GameKind::Chess, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
        (GameKind::Xiangqi, "3ak4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"),
    ] {
        for _ in 0..5 {
            let record = random_game(kind, "", Start::Position(position.into()), 30, &mut rng);
            for query in [readable(&record, &View::default()), compact(&record, &View::default())] {
                let link = open(&query);
                assert_eq!(link.error, None, "{query}");
                assert_same_game(&record, &link.record);
            }
        }
    }
}

#[test]
fn a_hundred_move_chess_game_fits_in_400_characters() {
    let mut rng = Lcg(3);
    let mut longest = 0;
    let mut games = 0;
    while games < 20 {
        let record = random_game(GameKind::Chess, "", Start::Seed(0), 200, &mut rng);
        if record.moves.len() < 200 {
            continue;
        }
        games += 1;
        let query = compact(&record, &View { orientation: Some(Side::Second), at: None });
        longest = longest.max(query.len());
        assert_eq!(open(&query).record.moves, record.moves);
    }
    assert!(longest <= 400, "{longest} characters");
}

#[test]
fn hand_written_links_open() {
    let cases = [
        (
            "game=chess&moves=e2e4+e7e5+g1f3&orientation=black",
            GameKind::Chess,
            3,
            Some(Side::Second),
        ),
        (
            "?game=chess&fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR+b+KQkq+-+0+1&moves=c7c5",
            GameKind::Chess,
            1,
            None,
        ),
        (
            "game=chess&fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_-_0_1&moves=e7e5",
            GameKind::Chess,
            1,
            None,
        ),
        ("game=chess&moves=e4,e5,Nf3", GameKind::Chess, 3, None),
        ("game=chess960&seed=518&moves=e2e4", GameKind::Chess, 1, None),
        ("game=xiangqi&moves=h3e3+h10g8&orientation=red", GameKind::Xiangqi, 2, Some(Side::First)),
        ("game=gomoku&moves=h8+i9+j10&orientation=white", GameKind::Gomoku, 3, Some(Side::Second)),
        ("game=gomoku&rules=size=19&moves=j10+k11", GameKind::Gomoku, 2, None),
        ("game=banqi&seed=42&moves=c3", GameKind::Banqi, 1, None),
        (
            "game=banqi&fen=*R*b*B*C*B*p*K*P/*N*n*p*c*P*k*p*r/*P*P*C*N*a*b*p*P/*R*p*n*r*a*A*A*c+1+-+0&moves=a1",
            GameKind::Banqi,
            1,
            None,
        ),
    ];
    for (query, kind, plies, orientation) in cases {
        let link = open(query);
        assert_eq!(link.error, None, "{query}");
        assert_eq!(link.record.kind, kind, "{query}");
        assert_eq!(link.record.moves.len(), plies, "{query}");
        assert_eq!(link.view.orientation, orientation, "{query}");
    }
    // Canonical coordinates are kept, whatever the link wrote.
    assert_eq!(open("game=chess&moves=e4,e5,Nf3").record.moves, ["e2e4", "e7e5", "g1f3"]);
    // The chess960 name sets the rule.
    assert!(open("game=chess960&seed=518").record.rules.contains("variant=chess960"));
    assert_eq!(open("game=chess&seed=518&rules=variant=chess960").record.start, Start::Seed(518));
}

#[test]
fn a_query_without_a_game_is_not_a_game_link() {
    for query in ["", "?", "embed=1", "orientation=black", "&&&=="] {
        assert!(read(&Query::parse(query), GameKind::Chess).is_none(), "{query}");
    }
}

#[test]
fn an_illegal_move_keeps_the_legal_prefix() {
    let mut moves: Vec<String> = Vec::new();
    let mut rng = Lcg(5);
    let record = random_game(GameKind::Chess, "", Start::Seed(0), 36, &mut rng);
    assert_eq!(record.moves.len(), 36, "the random game lasted");
    moves.extend(record.moves.iter().cloned());
    moves.push("e1e8".into());
    moves.push("e2e4".into());
    let link = open(&format!("game=chess&moves={}", moves.join("+")));
    assert_eq!(link.record.moves, record.moves);
    match link.error {
        Some(LinkError::BadMove { ply: 37, text, error: MoveError::Illegal(_) }) => {
            assert_eq!(text, "e1e8");
        }
        other => panic!("{other:?}"),
    }
    let link = open("game=xiangqi&moves=h3e3+zz9");
    assert_eq!(link.record.moves, ["h3e3"]);
    assert!(matches!(
        link.error,
        Some(LinkError::BadMove { ply: 2, error: MoveError::Parse(_), .. })
    ));
}

#[test]
fn hostile_links_open_what_they_can_and_say_what_was_wrong() {
    // An unknown game: the fallback's start position.
    let link = open("game=checkers&moves=e2e4");
    assert_eq!(link.error, Some(LinkError::UnknownGame("checkers".into())));
    assert_eq!(link.record.kind, GameKind::Chess);
    assert!(link.record.moves.is_empty());

    // A bad FEN: the start position, then the moves that fit it.
    let link = open("game=chess&fen=rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR+w&moves=e2e4");
    assert!(matches!(link.error, Some(LinkError::BadPosition(_))), "{:?}", link.error);
    assert_eq!(link.record.start, Start::Seed(0));
    assert_eq!(link.record.moves, ["e2e4"]);

    // Bad rules: the defaults.
    let link = open("game=gomoku&rules=size=23&moves=h8");
    assert!(matches!(link.error, Some(LinkError::BadRules(_))));
    assert_eq!(link.record.rules, default_rules(GameKind::Gomoku));
    assert_eq!(link.record.moves, ["h8"]);

    // A bad seed, a bad orientation, a bad ply.
    assert!(matches!(open("game=banqi&seed=x").error, Some(LinkError::BadSeed(_))));
    assert!(matches!(open("game=chess&orientation=up").error, Some(LinkError::BadOption { .. })));
    assert!(matches!(open("game=chess&ply=-3").error, Some(LinkError::BadOption { .. })));

    // Markup is only ever text: it comes back quoted in the error, never interpreted here.
    let link = open("game=<script>alert(1)</script>");
    assert_eq!(link.error, Some(LinkError::UnknownGame("<script>alert(1)</script>".into())));
    let link = open("game=chess&moves=e2e4+%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
    assert_eq!(link.record.moves, ["e2e4"]);
    assert!(
        matches!(&link.error, Some(LinkError::BadMove { ply: 2, text, .. }) if text.starts_with("<img"))
    );

    // 10 MB: cut at MAX_LINK, the moves before the cut kept.
    let mut huge = String::from("game=gomoku&moves=h8+i9+");
    huge.push_str(&"x".repeat(10 * 1024 * 1024));
    let link = open(&huge);
    assert_eq!(link.error, Some(LinkError::TooLong));
    assert_eq!(link.record.moves, ["h8", "i9"]);
    let message = LinkError::BadMove {
        ply: 3,
        text: shorten(&"y".repeat(1000)),
        error: MoveError::Parse(qi_rules::ParseMoveError::Empty),
    }
    .to_string();
    assert!(message.len() < 200, "{message}");

    // Too many moves: the list is cut at MAX_MOVES and that is said when nothing else was
    // wrong; a bad move is the more telling problem.
    let query = Query::parse(&format!("game=gomoku&moves={}", vec!["h8"; MAX_MOVES + 5].join("+")));
    let mut errors = Vec::new();
    assert_eq!(readable_record(&query, GameKind::Chess, &mut errors).moves.len(), MAX_MOVES);
    assert_eq!(errors, [LinkError::TooManyMoves]);
    let link = read(&query, GameKind::Chess).unwrap();
    assert_eq!(link.record.moves, ["h8"]);
    assert!(matches!(link.error, Some(LinkError::BadMove { ply: 2, .. })), "{:?}", link.error);

    // A result that means nothing, or that the moves contradict, is ignored and said so.
    let link = open("game=gomoku&moves=h8&result=2-0+spite");
    assert_eq!((link.record.moves.len(), link.record.ending), (1, None));
    assert!(matches!(&link.error, Some(LinkError::BadOption { name, .. }) if name == "result"));
    let mate = "game=chess&moves=f2f3+e7e5+g2g4+d8h4&result=1-0+resignation";
    let link = open(mate);
    assert_eq!((link.record.moves.len(), link.record.ending), (4, None));
    assert!(link.error.is_some(), "the moves end the game: Black mated");
    let link = open("game=chess&moves=e2e4+e7e5&result=0-1+resignation");
    assert_eq!(link.error, None);
    let resigned = Ending { winner: Some(Side::Second), by: EndedBy::Resignation };
    assert_eq!(link.record.ending, Some(resigned));
    let link = open("game=chess&moves=e2e4+e9e5&result=0-1+resignation");
    assert_eq!(link.record.ending, None, "the game stopped at a bad move goes on");
    // Nor does a game the link did not carry whole: a damaged compact game, an unknown game,
    // a bad start, nonsense endings.
    for query in [
        "g=zzzz&result=1-0+resignation",
        "game=checkers&moves=e2e4&result=1-0+resignation",
        "game=chess&fen=x&moves=e2e4&result=1-0+resignation",
        "game=chess&rules=size=3&moves=e2e4&result=1-0+resignation",
        "game=chess&moves=e2e4&result=1/2-1/2+resignation",
        "game=chess&moves=e2e4&result=1-0+agreement",
    ] {
        let link = open(query);
        assert_eq!(link.record.ending, None, "{query}");
        assert!(link.error.is_some(), "{query}");
    }
    let mut rng = Lcg(5);
    let mut record = random_game(GameKind::Chess, "", Start::Seed(0), 12, &mut rng);
    record.ending = Some(resigned);
    let query = compact(&record, &View::default());
    let (payload_end, _) = query.split_once('&').expect("g= then result=");
    let cut =
        format!("{}&{}", &payload_end[..payload_end.len() - 3], &query[payload_end.len() + 1..]);
    let link = open(&cut);
    assert!(link.record.moves.len() < record.moves.len(), "{cut}");
    assert_eq!(link.record.ending, None, "a cut compact game goes on: {cut}");

    // Broken escapes and non-UTF-8 bytes.
    let link = open("game=chess&moves=e2e4+%E2%28%A1+%zz+%");
    assert_eq!(link.record.moves, ["e2e4"]);
    assert!(link.error.is_some());
}

#[test]
fn damaged_compact_links_say_so() {
    let mut rng = Lcg(9);
    let record = random_game(GameKind::Xiangqi, "", Start::Seed(0), 60, &mut rng);
    let payload = encode_compact(&record);
    // A cut link keeps the moves before the cut (each move is one or two characters of
    // base64), and says it was damaged.
    for cut in 0..payload.len() {
        let link = open(&format!("g={}", &payload[..cut]));
        assert_eq!(link.error, Some(LinkError::BadCompact), "cut at {cut}");
        assert_eq!(link.record.moves[..], record.moves[..link.record.moves.len()]);
        if cut >= payload.len() - 4 {
            assert!(link.record.moves.len() + 3 >= record.moves.len(), "cut at {cut}");
        }
    }
    // Every single-character change either decodes to a legal game or is refused; none panics.
    for at in 0..payload.len() {
        for c in ['A', '_', '-', 'z', '!', '='] {
            let mut changed = payload.clone().into_bytes();
            changed[at] = c as u8;
            let _ = open(&format!("g={}", String::from_utf8_lossy(&changed)));
        }
    }
    assert_eq!(open("g=").error, Some(LinkError::BadCompact));
    assert_eq!(open("g=%FF%FE").error, Some(LinkError::BadCompact));
    assert_eq!(open("g=AAAA").error, Some(LinkError::BadCompact));
    assert_eq!(open("g=@@@@").record.kind, GameKind::Chess);
    // A position in a compact link is checked like any other.
    let mut hostile = GameRecord::new(GameKind::Chess, &default_rules(GameKind::Chess), 0);
    hostile.start = Start::Position("<img src=x onerror=alert(1)>".into());
    let link = open(&format!("g={}", encode_compact(&hostile)));
    assert_eq!(link.error, Some(LinkError::BadCompact));
    assert_eq!(link.record.start, Start::Seed(0));
}

#[test]
fn seeds_are_written_only_where_they_choose_the_start() {
    for (kind, changes, written) in [
        (GameKind::Chess, "", false),
        (GameKind::Chess, "variant=chess960", true),
        (GameKind::Xiangqi, "", false),
        (GameKind::Gomoku, "", false),
        (GameKind::Banqi, "", true),
    ] {
        let record = GameRecord::from_parts(
            kind,
            rules(kind, changes),
            Start::Seed(123_456_789),
            Vec::new(),
        );
        assert_eq!(
            readable(&record, &View::default()).contains("seed=123456789"),
            written,
            "{kind}"
        );
        assert_eq!(
            open(&compact(&record, &View::default())).record.start == Start::Seed(123_456_789),
            written
        );
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Lcg(13);
    let alphabet =
        b"game=chessxiangqibanqigomokufenmovesrulesseedorientationply&+%_-/*?0123456789 <>\"'";
    for _ in 0..3000 {
        let len = rng.below(120);
        let query: Vec<u8> = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        let query = String::from_utf8_lossy(&query);
        let _ = read(&Query::parse(&query), GameKind::Gomoku);
        let _ = read(&Query::parse(&format!("g={query}")), GameKind::Gomoku);
    }
}

#[test]
fn percent_encoding_round_trips() {
    for text in
        ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "a+b&c=d%e", "棋 ?#", ""]
    {
        assert_eq!(decode_component(&encode_component(text)), text);
    }
    for bytes in [&b""[..], b"\0", b"ab", b"abc", b"\xff\xfe\xfd\xfc"] {
        assert_eq!(from_base64url(&base64url(bytes)).as_deref(), Some(bytes));
    }
}

/// A game with variations, comments, marks and arrows: the compact link carries all of it.
#[test]
fn the_compact_link_carries_the_move_tree() {
    use crate::{Brush, Mark, Shape};
    let mut record = GameRecord::from_parts(
        GameKind::Chess,
        rules(GameKind::Chess, ""),
        Start::Seed(0),
        ["e2e4", "e7e5", "g1f3", "b8c6"].map(String::from).to_vec(),
    );
    record.edit_tree(|tree| {
        let sicilian = tree.add_move(&Path::main(1), "c7c5").unwrap();
        let nf3 = tree.add_move(&sicilian, "g1f3").unwrap();
        tree.set_comment(&nf3, "Open Sicilian | next");
        tree.toggle_mark(&Path::main(3), Mark(1));
        let arrow = Shape { from: Cell::new(5, 0), to: Cell::new(1, 4), brush: Brush::Blue };
        tree.toggle_shape(&Path::main(3), arrow);
        tree.set_comment(&Path::main(0), "{Before} the first move");
    });
    let link = compact(&record, &View::default());
    let opened = open(&link);
    assert_eq!(opened.error, None);
    assert_eq!(opened.record.tree(), record.tree(), "{link}");
    // The position shown may be in a variation: 1... c5 2. Nf3 is `ply=1.0.2`.
    let in_sicilian = Path { branches: vec![crate::tree::Branch { at: 1, index: 0 }], ply: 2 };
    let view = View { orientation: None, at: Some(in_sicilian.clone()) };
    let link = compact(&record, &view);
    assert!(link.ends_with("&ply=1.0.2"), "{link}");
    assert_eq!(open(&link).view.at, Some(in_sicilian.clone()));
    // Not in the game: said so, and the end is shown.
    for bad in ["1.1.2", "1.0.3", "9", "1.0", "1..2", "x"] {
        let link = format!("{}&ply={bad}", compact(&record, &View::default()));
        let opened = open(&link);
        assert_eq!(opened.view.at, None, "{bad}");
        assert!(
            matches!(opened.error, Some(LinkError::BadOption { ref name, .. }) if name == "ply"),
            "{bad}: {:?}",
            opened.error
        );
    }
    // The readable form has no variations: it shows the main line's position the variation
    // branches from (never a path its game lacks, which would read as an error).
    let link = readable(&record, &view);
    assert!(link.ends_with("&ply=1"), "{link}");
    let opened = open(&link);
    assert_eq!((opened.view.at, opened.error), (Some(Path::main(1)), None));
    let link = compact(&record, &view);
    // The readable form carries the main line only; a game without notes links as before.
    let plain = GameRecord::from_parts(
        GameKind::Chess,
        rules(GameKind::Chess, ""),
        Start::Seed(0),
        record.moves.clone(),
    );
    assert!(compact(&plain, &View::default()).len() < link.len());
    assert_eq!(open(&compact(&plain, &View::default())).record, plain);
    // A damaged tree leaves the main line, and says the link was damaged.
    let payload = encode_compact(&record);
    let mut bytes = from_base64url(&payload).unwrap();
    let last = bytes.len() - 3;
    bytes[last] = b'(';
    let (damaged, whole) = decode_compact(&base64url(&bytes)).unwrap();
    assert!(!whole);
    assert_eq!(damaged.moves, record.moves);
    assert!(!damaged.has_notes());
    // A tree longer than links carry: the main line alone.
    record.edit_tree(|tree| {
        tree.set_comment(&Path::main(2), &"long ".repeat(MAX_TREE_TEXT / 4));
    });
    let opened = open(&compact(&record, &View::default()));
    assert_eq!(opened.record.moves, record.moves);
    assert!(!opened.record.has_notes());
}
