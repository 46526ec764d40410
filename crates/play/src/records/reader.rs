//! Import: finding the game and format, setting the game up from its tags, and replaying the
//! main line into a [`GameRecord`].

use crate::{Brush, Line, Mark, Path, Shape};
use qi_rules::any::{AnyGame, SetupError, StartFrom};
use qi_rules::options::shorten;
use qi_rules::{Cell, Game, GameKind, MoveError, ParsePositionError, Side};

use super::error::{Pos, RecordError, RecordErrorKind};
use super::pgn::{self, Item, Parsed};
use super::{Format, Imported, banqi, chess, gomoku, xiangqi};
use crate::record::{Ending, GameRecord, Start};

/// Replays moves read from a text, keeping what a record needs.
pub(crate) struct Reader {
    /// The game after the moves so far (of the line being read).
    pub game: AnyGame,
    /// The moves from the start to here, in coordinates (into the variation being read).
    pub moves: Vec<String>,
    /// Banqi: the pieces that moves revealed on squares unknown at the start.
    pub learned: Vec<(Cell, qi_rules::banqi::Piece)>,
    number: u32,
    previous: Option<Side>,
    /// `number` and `previous` before the last move: a variation replacing it starts there.
    before_last: (u32, Option<Side>),
    /// The move tree read so far, and where in it the reading is.
    tree: Line,
    path: Path,
    /// A comment read right after `(`, before the variation's first move.
    before_first: Option<String>,
    /// The lines left to read variations, innermost last.
    open: Vec<OpenLine>,
    /// Ends of lines still being read that a variation went past (`(3... Bc5 4. c3)` after
    /// `3... Bc5`, before the main line's own fourth move): the line's own next move there is
    /// its continuation, and what the variation put there becomes an alternative to it.
    provisional: Vec<Path>,
}

/// A line left at a `(`, to go on with at its `)`.
struct OpenLine {
    game: AnyGame,
    moves: Vec<String>,
    learned_len: usize,
    number: u32,
    previous: Option<Side>,
    before_last: (u32, Option<Side>),
    path: Path,
}

fn play_text<G: Game>(game: &mut G, text: &str) -> Result<String, MoveError> {
    let mv = game.read_move(text)?;
    let coordinates = game.move_text(mv);
    game.apply(mv)?;
    Ok(coordinates)
}

impl Reader {
    fn new(game: AnyGame) -> Reader {
        let number = pgn::start_number(&game);
        Reader {
            game,
            moves: Vec::new(),
            learned: Vec::new(),
            number,
            previous: None,
            before_last: (number, None),
            tree: Line::default(),
            path: Path::main(0),
            before_first: None,
            open: Vec::new(),
            provisional: Vec::new(),
        }
    }

    /// The number of the next move and who plays it.
    pub(crate) fn next_number(&self) -> (u32, Side) {
        let side = self.game.side_to_move();
        let number = if self.previous == Some(Side::Second) && side == Side::First {
            self.number.saturating_add(1)
        } else {
            self.number
        };
        (number, side)
    }

    /// Notes a move played by `side` (taken before playing it).
    pub(crate) fn record_move(&mut self, number: u32, side: Side, coordinates: String) {
        self.before_last = (self.number, self.previous);
        self.number = number;
        self.previous = Some(side);
        let before = self.path.clone().normalized();
        // Is an outer line still being read here (a variation that began with the move it
        // replaces), and is this its end? Then a move here goes past what that line has read.
        let outer_reads_here = self.open.iter().any(|left| left.path.branches == before.branches);
        let at_end = self.tree.line(&before.branches).is_some_and(|line| line.len() == before.ply);
        let provisional = self.provisional.iter().position(|p| *p == before);
        if let Some(mut path) = self.tree.add_move(&self.path, &coordinates) {
            if !outer_reads_here && let Some(index) = provisional {
                // The line's own move where a variation went first: the line keeps it.
                self.provisional.remove(index);
                if path.branches.len() > before.branches.len() {
                    path = self.tree.promote(&path).unwrap_or(path);
                }
            } else if outer_reads_here && at_end {
                self.provisional.push(before.clone());
            }
            self.path = path;
            if let Some(comment) = self.before_first.take() {
                self.keep_comment_before(&before, comment);
            }
        }
        self.moves.push(coordinates);
    }

    /// A comment read before a variation's first move: before the variation's line when the
    /// move began one, otherwise (the variation repeats a move already there) after the move
    /// before it, added to what is said there.
    fn keep_comment_before(&mut self, before: &Path, comment: String) {
        let entered = self.path.branches.len() > before.branches.len() && self.path.ply == 1;
        let (branches, key) =
            if entered { (&self.path.branches, 0) } else { (&before.branches, before.ply) };
        let Some(line) = self.tree.line_mut(branches) else { return };
        line.comments
            .entry(key)
            .and_modify(|said| {
                said.push('\n');
                said.push_str(&comment);
            })
            .or_insert(comment);
    }

    /// `(`: the next moves are an alternative to the last one. `false` when there is no move
    /// to replace (the variation is then skipped).
    fn open_variation(&mut self) -> bool {
        if self.moves.is_empty() || self.path.ply == 0 {
            return false;
        }
        let mut game = self.game.clone();
        if game.undo().is_none() {
            return false;
        }
        let left = OpenLine {
            game: std::mem::replace(&mut self.game, game),
            moves: self.moves.clone(),
            learned_len: self.learned.len(),
            number: self.number,
            previous: self.previous,
            before_last: self.before_last,
            path: self.path.clone(),
        };
        self.moves.pop();
        (self.number, self.previous) = self.before_last;
        self.path = self.tree.previous(&self.path).unwrap_or_default();
        self.before_first = None;
        self.open.push(left);
        true
    }

    /// `)`: back to the line the variation left.
    fn close_variation(&mut self) {
        let Some(left) = self.open.pop() else { return };
        self.game = left.game;
        self.moves = left.moves;
        // What a variation's flips showed is not the game's deal.
        self.learned.truncate(left.learned_len);
        self.number = left.number;
        self.previous = left.previous;
        self.before_last = left.before_last;
        self.path = left.path;
        self.before_first = None;
    }

    /// A mark on the last move.
    fn mark(&mut self, number: u8) {
        if self.path.ply == 0 {
            return;
        }
        if let Some(line) = self.tree.line_mut(&self.path.branches) {
            let marks = line.marks.entry(self.path.ply).or_default();
            if !marks.contains(&Mark(number)) {
                marks.push(Mark(number));
            }
        }
    }

    /// Reads `text` (the coordinates or the game's notation) and plays it; `shown` is the text
    /// as the record wrote it, for the error.
    pub(crate) fn play(&mut self, pos: Pos, text: &str, shown: &str) -> Result<(), RecordError> {
        let (number, side) = self.next_number();
        let played = match &mut self.game {
            AnyGame::Chess(g) => play_text(g, text),
            AnyGame::Xiangqi(g) => play_text(g, text),
            AnyGame::Banqi(g) => play_text(g, text),
            AnyGame::Gomoku(g) => play_text(g, text),
        };
        match played {
            Ok(coordinates) => {
                self.record_move(number, side, coordinates);
                Ok(())
            }
            Err(error) => Err(self.move_error(pos, shown, error)),
        }
    }

    /// The error for the next move, written `text`.
    pub(crate) fn move_error(&self, pos: Pos, text: &str, error: MoveError) -> RecordError {
        let (number, side) = self.next_number();
        let ply = self.moves.len();
        let text = shorten(text);
        let kind = match error {
            MoveError::Parse(error) => {
                RecordErrorKind::UnreadableMove { ply, number, side, text, error }
            }
            MoveError::Illegal(error) => {
                RecordErrorKind::IllegalMove { ply, number, side, text, error }
            }
        };
        RecordError::at(pos, kind)
    }

    /// A comment after the last move; lichess's `[%cal ...]` and `[%csl ...]` commands in it
    /// become arrows and circles on the position.
    fn comment(&mut self, text: &str) {
        let (shapes, text) = take_shapes(text);
        if !shapes.is_empty() {
            let (line, at) = match self.tree.line_mut(&self.path.branches) {
                Some(line) => (line, self.path.ply),
                None => return,
            };
            line.shapes.entry(at).or_default().extend(shapes);
        }
        if text.is_empty() {
            return;
        }
        // Right after `(`: before the variation's first move, kept for it.
        let opening = !self.open.is_empty()
            && self.open.last().is_some_and(|left| left.moves.len() == self.moves.len() + 1);
        if opening {
            let slot = self.before_first.get_or_insert_with(String::new);
            if !slot.is_empty() {
                slot.push('\n');
            }
            slot.push_str(&text);
            return;
        }
        let Some(line) = self.tree.line_mut(&self.path.branches) else { return };
        line.comments
            .entry(self.path.ply)
            .and_modify(|comment| {
                comment.push('\n');
                comment.push_str(&text);
            })
            .or_insert(text);
    }
}

pub(crate) use qi_rules::any::canonical_rules as full_rules;

/// The game a board of `ranks` ranks belongs to.
fn kind_by_ranks(ranks: usize) -> Option<GameKind> {
    match ranks {
        8 => Some(GameKind::Chess),
        10 => Some(GameKind::Xiangqi),
        4 => Some(GameKind::Banqi),
        15 | 19 => Some(GameKind::Gomoku),
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
            &["size=19", "size=19,rule=standard", "size=19,rule=renju"]
        }
        GameKind::Gomoku => &["", "rule=standard", "rule=renju"],
    };
    let mut first_error = None;
    for rules in attempts {
        match AnyGame::new(kind.name(), rules, &StartFrom::Position(trimmed)) {
            Ok(game) => {
                let start = Start::Position(game.position());
                let record = GameRecord::from_parts(kind, game.rules_list(), start, Vec::new());
                let format = Format::for_game(kind).iter().copied().find(|f| f.is_position());
                let format = format.unwrap_or(Format::ChessFen);
                return Some(Ok(Imported { record, format, more_games: false }));
            }
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    let error = first_error.map(|error| setup_error(kind, first_pos(text), error));
    error.map(Err)
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
    if kind == GameKind::Gomoku && fen.is_some_and(|tag| ranks_of(&tag.value) == 19) {
        list.push_str(",size=19");
    }
    if let Some(tag) = rules_tag {
        list.push(',');
        list.push_str(&tag.value);
    }
    let rules_pos = rules_tag.or(parsed.tag("Variant")).map_or(Pos::START, |tag| tag.pos);
    let rules = full_rules(kind, &list)
        .map_err(|error| RecordError::at(rules_pos, RecordErrorKind::BadRules { error }))?;
    let Some(fen) = fen else {
        let start = match (kind, rules.contains("chess960")) {
            (GameKind::Banqi, _) => Start::Position(banqi::UNKNOWN_DEAL.to_owned()),
            // Chess960 without a start position: the standard one is number 518.
            (GameKind::Chess, true) => Start::Seed(518),
            _ => Start::Seed(0),
        };
        let from = match &start {
            Start::Seed(seed) => StartFrom::Start { seed: *seed },
            Start::Position(position) => StartFrom::Position(position),
        };
        let game = AnyGame::new(kind.name(), &rules, &from)
            .map_err(|error| setup_error(kind, rules_pos, error))?;
        return Ok(Setup { kind, rules, start, game });
    };
    let from = StartFrom::Position(&fen.value);
    let (rules, game) = match AnyGame::new(kind.name(), &rules, &from) {
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
}

fn read_moves(setup: Setup, parsed: &Parsed<'_>) -> Attempt {
    let kind = setup.kind;
    // ICCS coordinates count ranks from 0: the `Format` tag says so, or a square on rank 0.
    let iccs =
        parsed.tag("Format").is_some_and(|tag| tag.value.trim().eq_ignore_ascii_case("iccs"))
            || parsed
                .items
                .iter()
                .any(|item| matches!(item, Item::Move(_, word) if xiangqi::on_rank_zero(word)));
    let mut reader = Reader::new(setup.game);
    let mut error = None;
    // How deep in a variation that is being skipped the reading is (0: not skipping). A
    // variation is skipped from a move it can't read to its `)`: the main line goes on.
    let mut skipping = 0usize;
    for item in &parsed.items {
        if skipping > 0 {
            match item {
                Item::VariationOpen(_) => skipping += 1,
                Item::VariationClose => {
                    skipping -= 1;
                    if skipping == 0 {
                        reader.close_variation();
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
                // Deeper than the app keeps (and a hostile record could nest thousands):
                // skipped, like one with nothing to replace, whose `)` closes nothing.
                let too_deep = reader.open.len() >= crate::movetext::MAX_DEPTH;
                if too_deep || !reader.open_variation() {
                    skipping = 1;
                    reader.open.push(OpenLine {
                        game: reader.game.clone(),
                        moves: reader.moves.clone(),
                        learned_len: reader.learned.len(),
                        number: reader.number,
                        previous: reader.previous,
                        before_last: reader.before_last,
                        path: reader.path.clone(),
                    });
                }
                Ok(())
            }
            Item::VariationClose => {
                reader.close_variation();
                Ok(())
            }
            Item::Move(pos, word) => match kind {
                GameKind::Chess => chess::read_word(&mut reader, pos, word),
                GameKind::Xiangqi => xiangqi::read_word(&mut reader, pos, word, iccs),
                GameKind::Banqi => banqi::read_word(&mut reader, pos, word),
                GameKind::Gomoku => gomoku::read_word(&mut reader, pos, word),
            },
        };
        if let Err(e) = read {
            if reader.open.is_empty() {
                error = Some(e);
                break;
            }
            // In a variation: the rest of it is skipped.
            skipping = 1;
        }
    }
    // A record cut short inside a variation: back to the main line.
    while !reader.open.is_empty() {
        reader.close_variation();
    }
    let start = banqi::start_with(&setup.start, &reader.learned, &setup.rules);
    // A result the moves do not reach (a resignation, a flag, an agreed draw) is the record's
    // ending: the token after the moves (`*` too: the game goes on), else the `Result` tag. A
    // record cut short by a bad move has none, and the rules' own ending overrides whatever the
    // record claims.
    let claimed = parsed.result.or(parsed.tag("Result").map(|t| t.value.trim()));
    let termination = parsed.tag("Termination").map(|t| t.value.as_str());
    let ending = claimed
        .filter(|_| error.is_none() && reader.game.outcome().is_none())
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
    record.put_tree(reader.tree);
    Attempt { record, error }
}

/// A game to try reading a record as, and the rules its variant implies.
type Candidate = (GameKind, &'static str);

/// The games to try reading a record as, in order, and whether its tags decided the game.
fn candidates(
    parsed: &Parsed<'_>,
    hint: Option<GameKind>,
) -> Result<(Vec<Candidate>, bool), RecordError> {
    if let Some(tag) = parsed.tag("Variant").filter(|tag| !tag.value.trim().is_empty()) {
        let decided = variant(&tag.value).ok_or_else(|| {
            let name = shorten(tag.value.trim());
            RecordError::at(tag.pos, RecordErrorKind::UnknownVariant { name })
        })?;
        return Ok((vec![decided], true));
    }
    let by_tags = parsed.tag("Game").and_then(|tag| variant(&tag.value)).or_else(|| {
        let fen = parsed.tag("FEN")?;
        kind_by_ranks(ranks_of(&fen.value)).map(|kind| (kind, ""))
    });
    if let Some(decided) = by_tags {
        return Ok((vec![decided], true));
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
    let mut kinds = Vec::new();
    for kind in order {
        if !kinds.iter().any(|&(k, _)| k == kind) {
            kinds.push((kind, ""));
        }
    }
    Ok((kinds, false))
}

/// Reads `text` as a PGN-style record (or a bare move list).
pub(crate) fn import_pgn(text: &str, hint: Option<GameKind>) -> Result<Imported, RecordError> {
    let parsed = pgn::parse(text)?;
    let (candidates, decided) = candidates(&parsed, hint)?;
    let fallback_960 = parsed.tag("Variant").is_none_or(|tag| tag.value.trim().is_empty());
    let mut best: Option<Attempt> = None;
    let mut setup_failure = None;
    for (kind, implied) in candidates {
        let attempt = match setup(kind, implied, &parsed, fallback_960) {
            Ok(setup) => read_moves(setup, &parsed),
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
    let Some(Attempt { record, error }) = best else {
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
    let format = match record.kind {
        GameKind::Gomoku if !parsed.numbered => Format::GomokuMoves,
        GameKind::Xiangqi if chinese => Format::XiangqiChinese,
        kind => Format::for_game(kind)[0],
    };
    Ok(Imported { record, format, more_games: parsed.more_games })
}

/// Takes lichess's `[%cal Ge2e4,Rd7d5]` and `[%csl Gd4]` commands out of a comment: the shapes
/// they draw, and the comment without them (other commands, `[%eval]`, `[%clk]`, stay in it).
fn take_shapes(text: &str) -> (Vec<Shape>, String) {
    let mut shapes = Vec::new();
    let mut rest = String::with_capacity(text.len());
    let mut tail = text;
    while let Some(open) = tail.find("[%c") {
        let after = &tail[open..];
        let Some(close) = after.find(']') else { break };
        let command = &after[2..close];
        let (name, args) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
        let read: Option<Vec<Shape>> = match name {
            "cal" | "csl" => args
                .split(',')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(|arg| {
                    let mut chars = arg.chars();
                    let brush = Brush::from_letter(chars.next()?)?;
                    let cells = chars.as_str();
                    let (from, used) = Cell::parse_prefix(cells)?;
                    let to = if name == "csl" {
                        (used == cells.len()).then_some(from)?
                    } else {
                        let (to, more) = Cell::parse_prefix(&cells[used..])?;
                        (used + more == cells.len()).then_some(to)?
                    };
                    Some(Shape { from, to, brush })
                })
                .collect(),
            _ => None,
        };
        match read {
            Some(read) => {
                shapes.extend(read);
                rest.push_str(&tail[..open]);
                // The space that separated the command from the text goes with it.
                tail = after[close + 1..].trim_start_matches(' ');
            }
            None => {
                rest.push_str(&tail[..open + close + 1]);
                tail = &after[close + 1..];
            }
        }
    }
    rest.push_str(tail);
    (shapes, rest.trim().to_owned())
}
