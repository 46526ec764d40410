//! Import: finding the game and format of a text, setting the game up from its tags, and
//! reading its moves, through the game's [`Dialect`], into a [`GameRecord`].

use qi_rules::any::{AnyGame, SetupError, StartFrom};
use qi_rules::options::shorten;
use qi_rules::{GameKind, ParsePositionError};

use super::dialect::Dialect;
use super::error::{Pos, RecordError, RecordErrorKind, RecordWarning, RecordWarningKind};
use super::pgn::{self, Item, Parsed};
use super::reader::Reader;
use super::{Format, Imported, gomoku, xiangqi};
use crate::record::{Ending, GameRecord, Start};

pub(crate) use qi_rules::any::canonical_rules as full_rules;

/// The game a board of `ranks` ranks belongs to.
fn kind_by_ranks(ranks: usize) -> Option<GameKind> {
    match ranks {
        8 => Some(GameKind::Chess),
        10 => Some(GameKind::Xiangqi),
        4 => Some(GameKind::Banqi),
        15 | 19 | 20 => Some(GameKind::Gomoku),
        _ => None,
    }
}

fn ranks_of(position: &str) -> usize {
    position.split_whitespace().next().map_or(0, |board| board.split('/').count())
}

/// The game a `Variant` tag names, and the rules it implies.
fn variant(name: &str) -> Option<(GameKind, &'static str)> {
    let name = name.trim().to_ascii_lowercase();
    Some(match name.as_str() {
        "standard" | "chess" | "normal" | "from position" => (GameKind::Chess, ""),
        "chess960"
        | "chess 960"
        | "960"
        | "fischerandom"
        | "fischer random"
        | "fischer random chess"
        | "fischerrandom" => (GameKind::Chess, "variant=chess960"),
        "xiangqi" | "chinese chess" => (GameKind::Xiangqi, ""),
        "banqi" | "dark chess" => (GameKind::Banqi, ""),
        "gomoku" | "five in a row" => (GameKind::Gomoku, ""),
        "renju" => (GameKind::Gomoku, "rule=renju"),
        _ => return None,
    })
}

fn setup_error(kind: GameKind, pos: Pos, error: SetupError) -> RecordError {
    let kind = match error {
        SetupError::Rules(error) => RecordErrorKind::BadRules { error },
        SetupError::Position(error) => RecordErrorKind::BadPosition { game: kind, error },
        other => RecordErrorKind::BadPosition {
            game: kind,
            error: ParsePositionError::field("position", other.to_string()),
        },
    };
    RecordError::at(pos, kind)
}

/// Where the first character that is not white space stands.
fn first_pos(text: &str) -> Pos {
    let mut pos = Pos::START;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next_if(|c| c.is_whitespace()) {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => pos = Pos { line: pos.line + 1, column: 1 },
            _ => pos.column += 1,
        }
    }
    pos
}

/// Reads `text` as a bare position, if it looks like one (its first field holds a `/`).
pub(crate) fn import_position(
    text: &str,
    hint: Option<GameKind>,
) -> Option<Result<Imported, RecordError>> {
    let trimmed = text.trim();
    let first = trimmed.split_whitespace().next()?;
    if !first.contains('/') || pgn::is_result(first) || first.starts_with(['[', '{', ';', '(', '%'])
    {
        return None;
    }
    let ranks = ranks_of(trimmed);
    let kind = kind_by_ranks(ranks).or(hint).unwrap_or(GameKind::Chess);
    let attempts: &[&str] = match kind {
        GameKind::Chess => &["", "variant=chess960"],
        GameKind::Xiangqi => &[""],
        GameKind::Banqi => &["", "chain=true"],
        // The string does not say the rule: freestyle, unless only another one allows it.
        GameKind::Gomoku if ranks == 19 => {
            &["size=19", "size=19,rule=standard", "size=19,rule=renju", "size=19,rule=caro"]
        }
        GameKind::Gomoku if ranks == 20 => {
            &["size=20", "size=20,rule=standard", "size=20,rule=renju", "size=20,rule=caro"]
        }
        GameKind::Gomoku => &["", "rule=standard", "rule=renju", "rule=caro"],
    };
    let mut first_error = None;
    // As written, then (chess and xiangqi) with the fields it leaves out filled in.
    let completed = complete_fen(kind, trimmed);
    let texts = std::iter::once(trimmed).chain(completed.as_deref());
    for (text, rules) in texts.flat_map(|text| attempts.iter().map(move |rules| (text, rules))) {
        match AnyGame::new(kind.name(), rules, &StartFrom::Position(text)) {
            Ok(game) => {
                let start = Start::Position(game.position());
                let record = GameRecord::from_parts(kind, game.rules_list(), start, Vec::new());
                let format = Format::for_game(kind).iter().copied().find(|f| f.is_position());
                let format = format.unwrap_or(Format::ChessFen);
                let imported = Imported { record, format, more_games: false, warnings: Vec::new() };
                return Some(Ok(imported));
            }
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    let error = first_error.map(|error| setup_error(kind, first_pos(text), error));
    error.map(Err)
}

/// A chess or xiangqi FEN with the fields it leaves out filled in as python-chess and the
/// xiangqi tools do: the side to move first (White, Red), no castling, no en passant, the
/// clocks at 0 and 1. Xiangqi's side may be written `r` for Red. `None` when nothing is missing
/// (or the game has no such fields).
fn complete_fen(kind: GameKind, text: &str) -> Option<String> {
    if let Some(fen) = epd_as_fen(kind, text) {
        return Some(fen);
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !matches!(kind, GameKind::Chess | GameKind::Xiangqi)
        || fields.is_empty()
        || fields.len() >= 6
    {
        return None;
    }
    let defaults = ["", "w", "-", "-", "0", "1"];
    let mut filled: Vec<String> = fields.iter().map(|f| (*f).to_owned()).collect();
    if kind == GameKind::Xiangqi && filled.get(1).is_some_and(|side| side.eq_ignore_ascii_case("r"))
    {
        filled[1] = "w".to_owned();
    }
    filled.extend(defaults[fields.len()..].iter().map(|f| (*f).to_owned()));
    let completed = filled.join(" ");
    (completed != text).then_some(completed)
}

/// A chess EPD line (`<board> w KQkq - bm Nf3; id "x";`) as a FEN: its four fields, then the
/// clocks from its `hmvc` and `fmvn` operations (else 0 and 1). The other operations are not
/// kept. `None` unless the fifth field is an operation.
fn epd_as_fen(kind: GameKind, text: &str) -> Option<String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let operation = fields.get(4)?;
    if kind != GameKind::Chess || operation.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = fields[4..].join(" ");
    let value = |name: &str| {
        rest.split(';').map(str::trim).find_map(|op| {
            let (opcode, value) = op.split_once(char::is_whitespace)?;
            (opcode == name).then(|| value.trim().to_owned()).filter(|v| v.parse::<u32>().is_ok())
        })
    };
    let clock = value("hmvc").unwrap_or_else(|| "0".to_owned());
    let number = value("fmvn").unwrap_or_else(|| "1".to_owned());
    Some(format!("{} {clock} {number}", fields[..4].join(" ")))
}

/// A game set up from a record's tags.
struct Setup {
    kind: GameKind,
    rules: String,
    start: Start,
    game: AnyGame,
}

/// Sets up a `kind` game from the tags: the rules `implied` by the variant and the `Rules` tag,
/// the start from the `FEN` tag. `fallback_960`: a chess FEN only Chess960 reads makes the game
/// Chess960.
fn setup(
    kind: GameKind,
    implied: &str,
    parsed: &Parsed<'_>,
    fallback_960: bool,
) -> Result<Setup, RecordError> {
    let rules_tag = parsed.tag("Rules");
    let fen = parsed.tag("FEN").filter(|tag| !tag.value.trim().is_empty());
    let mut list = implied.to_owned();
    let fen_ranks = fen.map_or(0, |tag| ranks_of(&tag.value));
    if kind == GameKind::Gomoku && matches!(fen_ranks, 19 | 20) {
        list.push_str(&format!(",size={fen_ranks}"));
    }
    if let Some(tag) = rules_tag {
        list.push(',');
        list.push_str(&tag.value);
    }
    let rules_pos = rules_tag.or(parsed.tag("Variant")).map_or(Pos::START, |tag| tag.pos);
    let rules = full_rules(kind, &list)
        .map_err(|error| RecordError::at(rules_pos, RecordErrorKind::BadRules { error }))?;
    let Some(fen) = fen else {
        let start = super::for_game(kind, false).default_start(&rules);
        let from = match &start {
            Start::Seed(seed) => StartFrom::Start { seed: *seed },
            Start::Position(position) => StartFrom::Position(position),
        };
        let game = AnyGame::new(kind.name(), &rules, &from)
            .map_err(|error| setup_error(kind, rules_pos, error))?;
        return Ok(Setup { kind, rules, start, game });
    };
    // A FEN tag that leaves out its last fields reads with their usual values.
    let completed = complete_fen(kind, fen.value.trim());
    let from = StartFrom::Position(&fen.value);
    let first = AnyGame::new(kind.name(), &rules, &from);
    let first = match (first, &completed) {
        (Err(_), Some(completed)) => {
            AnyGame::new(kind.name(), &rules, &StartFrom::Position(completed))
        }
        (first, _) => first,
    };
    let (rules, game) = match first {
        Ok(game) => (rules, game),
        Err(error) => {
            let retry = (kind == GameKind::Chess && fallback_960)
                .then(|| full_rules(kind, &format!("{list},variant=chess960")).ok())
                .flatten()
                .and_then(|rules| Some((AnyGame::new("chess", &rules, &from).ok()?, rules)));
            match retry {
                Some((game, rules)) => (rules, game),
                None => return Err(setup_error(kind, fen.pos, error)),
            }
        }
    };
    Ok(Setup { kind, rules, start: Start::Position(game.position()), game })
}

/// A reading of the main line under one game: the record as far as it went, and why it stopped.
struct Attempt {
    record: GameRecord,
    error: Option<RecordError>,
    warnings: Vec<RecordWarning>,
    /// Whether the moves were ICCS coordinates.
    iccs: bool,
}

/// Reads the main line (and the tree) under `setup`'s game; `from_zero`: xiangqi coordinates
/// count ranks from 0 whatever the record shows (UCCI's `h2e2`).
fn read_moves(setup: Setup, parsed: &Parsed<'_>, from_zero: bool) -> Attempt {
    let kind = setup.kind;
    // ICCS coordinates count ranks from 0: the `Format` tag says so, or a square on rank 0.
    let iccs = from_zero
        || parsed.tag("Format").is_some_and(|tag| tag.value.trim().eq_ignore_ascii_case("iccs"))
        || parsed
            .items
            .iter()
            .any(|item| matches!(item, Item::Move(_, word) if xiangqi::on_rank_zero(word)));
    let mut dialect = super::for_game(kind, iccs);
    let iccs = iccs && kind == GameKind::Xiangqi;
    let mut reader = Reader::new(setup.game);
    let mut error = None;
    // How deep in a variation that is being skipped the reading is (0: not skipping). A
    // variation is skipped from a move it can't read to its `)`: the main line goes on.
    let mut skipping = 0usize;
    // Every variation the reader opens (or skips) the dialect enters, and leaves when it closes.
    let close = |reader: &mut Reader, dialect: &mut Box<dyn Dialect>| {
        if reader.close_variation() {
            dialect.leave_variation();
        }
    };
    for item in &parsed.items {
        if skipping > 0 {
            match item {
                Item::VariationOpen(_) => skipping += 1,
                Item::VariationClose => {
                    skipping -= 1;
                    if skipping == 0 {
                        close(&mut reader, &mut dialect);
                    }
                }
                _ => {}
            }
            continue;
        }
        let read = match *item {
            Item::Comment(text) => {
                reader.comment(text);
                Ok(())
            }
            Item::Mark(number) => {
                reader.mark(number);
                Ok(())
            }
            Item::VariationOpen(_) => {
                dialect.enter_variation();
                // Deeper than the app keeps (and a hostile record could nest thousands):
                // skipped, like one with nothing to replace, whose `)` closes nothing.
                let too_deep = reader.depth() >= crate::movetext::MAX_DEPTH;
                if too_deep || !reader.open_variation() {
                    skipping = 1;
                    reader.skip_variation();
                }
                Ok(())
            }
            Item::VariationClose => {
                close(&mut reader, &mut dialect);
                Ok(())
            }
            Item::Move(pos, word) => dialect.read_word(&mut reader, pos, word),
        };
        if let Err(e) = read {
            if reader.depth() == 0 {
                error = Some(e);
                break;
            }
            // In a variation: the rest of it is skipped, and the player told.
            let kind = RecordWarningKind::VariationSkipped { reason: Box::new(e.kind.clone()) };
            reader.warnings.push(RecordWarning::at(e.pos(), kind));
            skipping = 1;
        }
    }
    // A record cut short inside a variation: back to the main line.
    while reader.depth() > 0 {
        close(&mut reader, &mut dialect);
    }
    let start = dialect.finish_start(setup.start, &setup.rules);
    let warnings = std::mem::take(&mut reader.warnings);
    let (tree, game) = reader.finish();
    // A result the moves do not reach (a resignation, a flag, an agreed draw) is the record's
    // ending: the token after the moves (`*` too: the game goes on), else the `Result` tag. A
    // record cut short by a bad move has none, and the rules' own ending overrides whatever the
    // record claims.
    let claimed = parsed.result.or(parsed.tag("Result").map(|t| t.value.trim()));
    let termination = parsed.tag("Termination").map(|t| t.value.as_str());
    let ending = claimed
        .filter(|_| error.is_none() && game.outcome().is_none())
        .and_then(|result| Ending::from_pgn(result, termination));
    // A Termination tag that says just what export writes for this ending is the ending's;
    // any other (`Abandoned`, `Normal` on a mate, ...) is kept as it is.
    let written = ending.and_then(Ending::termination);
    let tags = parsed
        .tags
        .iter()
        .filter(|tag| pgn::keeps_tag(tag, kind))
        .filter(|tag| !(tag.name == "Termination" && written == Some(tag.value.as_str())))
        .map(|tag| (tag.name.clone(), tag.value.clone()))
        .collect();
    let mut record = GameRecord::from_parts(kind, setup.rules, start, Vec::new());
    record.tags = tags;
    record.ending = ending;
    record.put_tree(tree);
    Attempt { record, error, warnings, iccs }
}

/// A game to try reading a record as, and the rules its variant implies.
type Candidate = (GameKind, String);

/// The games to try reading a record as, in order, and whether its tags decided the game.
fn candidates(
    parsed: &Parsed<'_>,
    hint: Option<GameKind>,
) -> Result<(Vec<Candidate>, bool), RecordError> {
    if let Some(tag) = parsed.tag("Variant").filter(|tag| !tag.value.trim().is_empty()) {
        let (kind, implied) = variant(&tag.value).ok_or_else(|| {
            let name = shorten(tag.value.trim());
            RecordError::at(tag.pos, RecordErrorKind::UnknownVariant { name })
        })?;
        return Ok((vec![(kind, implied.to_owned())], true));
    }
    if let Some(decided) = playok_game_type(parsed)? {
        return Ok((vec![decided], true));
    }
    let by_tags = parsed.tag("Game").and_then(|tag| variant(&tag.value)).or_else(|| {
        let fen = parsed.tag("FEN")?;
        kind_by_ranks(ranks_of(&fen.value)).map(|kind| (kind, ""))
    });
    if let Some((kind, implied)) = by_tags {
        return Ok((vec![(kind, implied.to_owned())], true));
    }
    let mut order: Vec<GameKind> = hint.into_iter().collect();
    let mut words = parsed.items.iter().filter_map(|item| match item {
        Item::Move(_, word) => Some(*word),
        _ => None,
    });
    // Points with no move numbers: a gomoku move string before anything else.
    let points = words.clone().next().is_some() && words.all(gomoku::is_points);
    if points && !parsed.numbered {
        order.push(GameKind::Gomoku);
    }
    order.extend([GameKind::Chess, GameKind::Xiangqi, GameKind::Gomoku, GameKind::Banqi]);
    let mut kinds: Vec<Candidate> = Vec::new();
    for kind in order {
        if !kinds.iter().any(|(k, _)| *k == kind) {
            kinds.push((kind, String::new()));
        }
    }
    Ok((kinds, false))
}

/// PlayOK's gomoku: a `GameType` tag `61,15` (PDN's tag, PlayOK's number for gomoku, then the
/// board size). A size Qi's gomoku does not offer is named.
fn playok_game_type(parsed: &Parsed<'_>) -> Result<Option<Candidate>, RecordError> {
    let Some(tag) = parsed.tag("GameType") else { return Ok(None) };
    let mut fields = tag.value.split(',').map(str::trim);
    if fields.next() != Some("61") {
        return Ok(None);
    }
    match fields.next().map(str::parse::<u32>) {
        None | Some(Ok(15)) => Ok(Some((GameKind::Gomoku, String::new()))),
        Some(Ok(size @ (19 | 20))) => Ok(Some((GameKind::Gomoku, format!("size={size}")))),
        Some(Ok(size)) => {
            let name = format!("gomoku on a {size}×{size} board");
            Err(RecordError::at(tag.pos, RecordErrorKind::UnknownVariant { name }))
        }
        Some(Err(_)) => Ok(None),
    }
}

/// PlayOK's tags name the players by their stones' colour, and its result counts from White's
/// side as chess's does; Qi's records name the first player (Black in gomoku) `White` and count
/// from the first player's side. This turns the one into the other.
fn playok_colours(parsed: &mut Parsed<'_>) {
    let swap = |result: &str| match result.trim() {
        "1-0" => Some("0-1"),
        "0-1" => Some("1-0"),
        _ => None,
    };
    for tag in &mut parsed.tags {
        match tag.name.as_str() {
            "White" => tag.name = "Black".to_owned(),
            "Black" => tag.name = "White".to_owned(),
            "WhiteElo" => tag.name = "BlackElo".to_owned(),
            "BlackElo" => tag.name = "WhiteElo".to_owned(),
            "Result" => {
                if let Some(swapped) = swap(&tag.value) {
                    tag.value = swapped.to_owned();
                }
            }
            _ => {}
        }
    }
    if let Some(swapped) = parsed.result.and_then(swap) {
        parsed.result = Some(swapped);
    }
}

/// The game set up again for a second reading of xiangqi coordinates with ranks from 0, when
/// the first stopped and did not already read them so.
fn setup_again(
    attempt: &Attempt,
    kind: GameKind,
    implied: &str,
    parsed: &Parsed<'_>,
    fallback_960: bool,
) -> Option<Setup> {
    let worth = kind == GameKind::Xiangqi && attempt.error.is_some() && !attempt.iccs;
    worth.then(|| setup(kind, implied, parsed, fallback_960).ok()).flatten()
}

/// Whether a gomoku record's opening left black with the second player.
fn second_seat_holds_black(record: &GameRecord) -> bool {
    match record.replay(usize::MAX).game {
        AnyGame::Gomoku(game) => game.colour_of(qi_rules::Side::First) == qi_rules::Side::Second,
        _ => false,
    }
}

/// Undoes [`playok_colours`] on a record read: the players' tags and a recorded result.
fn unswap_colours(record: &mut GameRecord) {
    for (name, _) in &mut record.tags {
        let swapped = match name.as_str() {
            "White" => "Black",
            "Black" => "White",
            "WhiteElo" => "BlackElo",
            "BlackElo" => "WhiteElo",
            _ => continue,
        };
        *name = swapped.to_owned();
    }
    if let Some(ending) = &mut record.ending {
        ending.winner = ending.winner.map(qi_rules::Side::other);
    }
}

/// Reads `text` as a PGN-style record (or a bare move list).
pub(crate) fn import_pgn(text: &str, hint: Option<GameKind>) -> Result<Imported, RecordError> {
    let mut parsed = pgn::parse(text)?;
    let playok = playok_game_type(&parsed).is_ok_and(|game| game.is_some());
    if playok {
        playok_colours(&mut parsed);
    }
    let (candidates, decided) = candidates(&parsed, hint)?;
    let fallback_960 = parsed.tag("Variant").is_none_or(|tag| tag.value.trim().is_empty());
    let mut best: Option<Attempt> = None;
    let mut setup_failure = None;
    // Gomoku moves with a colour choice among them (`black`, as PlayOK writes a swap) are read
    // under swap, then swap2, unless the rules say which opening.
    let choices = parsed
        .items
        .iter()
        .any(|item| matches!(item, Item::Move(_, w) if gomoku::is_opening_choice(w)))
        && parsed.tag("Rules").is_none_or(|tag| !tag.value.contains("opening"));
    let candidates: Vec<Candidate> = candidates
        .into_iter()
        .flat_map(|(kind, implied)| {
            let openings: &[&str] = if kind == GameKind::Gomoku && choices {
                &[",opening=swap", ",opening=swap2", ""]
            } else {
                &[""]
            };
            openings
                .iter()
                .map(move |opening| (kind, format!("{implied}{opening}")))
                .collect::<Vec<_>>()
        })
        .collect();
    for (kind, implied) in candidates {
        let implied = implied.as_str();
        let attempt = match setup(kind, implied, &parsed, fallback_960) {
            Ok(setup) => {
                let attempt = read_moves(setup, &parsed, false);
                // Xiangqi coordinates that stop reading with ranks from 1 may be UCCI's, ranks
                // from 0 (`h2e2`), in a record that never touches rank 0: the better reading.
                match setup_again(&attempt, kind, implied, &parsed, fallback_960) {
                    Some(again) => {
                        let retry = read_moves(again, &parsed, true);
                        if retry.record.moves.len() > attempt.record.moves.len() {
                            retry
                        } else {
                            attempt
                        }
                    }
                    None => attempt,
                }
            }
            Err(error) if decided => return Err(error),
            Err(error) => {
                setup_failure.get_or_insert(error);
                continue;
            }
        };
        let further =
            best.as_ref().is_none_or(|b| attempt.record.moves.len() > b.record.moves.len());
        let complete = attempt.error.is_none();
        if complete || further {
            best = Some(attempt);
        }
        if complete {
            break;
        }
    }
    let Some(Attempt { mut record, error, warnings, iccs }) = best else {
        return Err(
            setup_failure.unwrap_or_else(|| RecordError::at(Pos::START, RecordErrorKind::Empty))
        );
    };
    // Xiangqi moves written in Chinese (not WXF letters or coordinates).
    let chinese = parsed
        .tag("Format")
        .is_some_and(|tag| tag.value.trim().eq_ignore_ascii_case("chinese"))
        || parsed.items.iter().any(|item| matches!(item, Item::Move(_, word) if !word.is_ascii()));
    if let Some(mut error) = error.or(parsed.error) {
        error.partial = Some(Box::new(record));
        return Err(error);
    }
    if playok && second_seat_holds_black(&record) {
        // PlayOK named players by colour, and the first player ended with white: its `White`
        // was Qi's first player after all.
        unswap_colours(&mut record);
    }
    let format = match record.kind {
        GameKind::Gomoku if !parsed.numbered => Format::GomokuMoves,
        GameKind::Xiangqi if chinese => Format::XiangqiChinese,
        GameKind::Xiangqi if iccs => Format::XiangqiIccs,
        kind => Format::for_game(kind)[0],
    };
    let mut warnings = [parsed.warnings, warnings].concat();
    warnings.sort_by_key(|warning| (warning.line, warning.column));
    Ok(Imported { record, format, more_games: parsed.more_games, warnings })
}
