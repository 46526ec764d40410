//! The page address carries the whole game: which game, its rule options, the start (position or
//! deal seed), every move, and how the viewer sees it.
//!
//! # Two forms
//! A **readable** form that a person can write by hand:
//!
//! ```text
//! ?game=chess&fen=<FEN>&moves=e2e4+e7e5&orientation=black
//! ?game=xiangqi&moves=h3e3+h10g8
//! ?game=gomoku&rules=size=19&moves=j10+k11
//! ?game=banqi&seed=42&moves=c3+d2+c3-c4
//! ```
//!
//! - `game`: `chess`, `chess960`, `xiangqi`, `banqi`, `gomoku` (and the rules crate's other
//!   variant names).
//! - `rules`: the rule options that differ from the defaults, as `key=value,...`.
//! - `fen` (or `position`): the start position in the game's own format; spaces may be written
//!   `+`, `_` or `%20`. Without it the game starts from the start position, with `seed` choosing
//!   the banqi deal or the Chess960 position.
//! - `moves`: the moves in the game's coordinates (`e2e4`, `e7e8q`, `h3e3`, `c3`, `c3-c4`, `h8`),
//!   separated by `+` (a space) or `,`.
//! - `orientation`: the side seen at the bottom: `first`/`second`, or the game's colours
//!   (`white`/`black` in chess, `red`/`black` in xiangqi and banqi, `black`/`white` in gomoku,
//!   where black moves first).
//! - `ply`: the position shown (the game's end when missing): after this many moves of the main
//!   line (`ply=12`), or in a variation, as numbers joined by `.`: for each variation on the way,
//!   the ply it branches after and which of the alternatives there it is (from 0), then how
//!   many of its moves are played (`ply=4.0.2`: after four moves, the first variation, its
//!   second move; `ply=4.0.1.1.3` goes one variation deeper). A position the game does not
//!   have is said so and the end is shown. The readable form carries the main line only: a
//!   position in a variation is written as the main line's position it branches from.
//! - `result`: how a game ended when its moves do not show it: the result and why, as
//!   `0-1+resignation`, `1-0+time`, `1/2-1/2+agreement` or `1-0+recorded`. Ignored (and said so)
//!   when the moves end the game themselves, or anything else in the link could not be read
//!   (the game, its rules, its start, a move).
//!
//! A **compact** form, which the share button makes and the address bar shows: `?g=<payload>`,
//! where the payload is base64url (no padding) of: a version byte (1); a byte with the game in
//! bits 0-1 (chess, xiangqi, banqi, gomoku), bit 2 set when rules follow and bit 3 when the
//! start is a position rather than a seed; the rules (a varint length and UTF-8 text); the seed
//! (a varint) or the position (a varint length and UTF-8 text); the number of moves (a varint);
//! then each move as its index among the legal moves of its position sorted by coordinate text,
//! in one byte, or two (little-endian) when that position has more than 256 moves. A 100-move
//! chess game takes about 280 characters. When bit 4 of the flags is set, the move tree follows
//! (a varint length and UTF-8 text): the game's variations, comments, marks, arrows and circles
//! as [`crate::movetext`], with each main-line move written `.` (the moves above say which);
//! at most [`MAX_TREE_TEXT`] bytes, else the link carries the main line alone. `result`,
//! `orientation` and `ply` may follow as readable parameters.
//!
//! # Untrusted input
//! A link is read as far as it makes sense: a bad rule list falls back to the defaults, a bad
//! position to the start, and a bad move ends the game at the longest legal prefix. What was
//! wrong comes back as a [`LinkError`]; nothing panics, and no text from the link is ever
//! treated as markup (it is only shown through Yew's text nodes). Links longer than
//! [`MAX_LINK`] are cut there first.

use std::fmt;

use qi_rules::any::{AnyGame, StartFrom, parse_variant};
use qi_rules::{GameKind, MoveError, Side};

use crate::Path;
use crate::record::{Ending, GameRecord, Start, default_rules};

/// The longest query read, in bytes; the rest of a longer link is ignored (and said so).
pub const MAX_LINK: usize = 64 * 1024;
/// The most moves read from a link.
pub const MAX_MOVES: usize = 4096;
/// The longest move tree (variations, comments, marks, shapes, as [`crate::movetext`]) a
/// compact link carries, in bytes; a game with more notes is linked by its main line alone.
pub const MAX_TREE_TEXT: usize = 16 * 1024;
/// The longest text of a link that an error message quotes.
const QUOTE: usize = 40;

/// How the viewer sees the game: options that travel with the link but are not the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// The side at the bottom of the board, when the link says.
    pub orientation: Option<Side>,
    /// The position shown (the main line's ply 0 is the start), when the link says.
    pub at: Option<Path>,
}

/// What was wrong with a link. The game opens anyway, as far as it could be read.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// The link was longer than [`MAX_LINK`] bytes; only its start was read.
    TooLong,
    /// No such game; the start position of the current game opens instead.
    UnknownGame(String),
    /// The rule options could not be read; the defaults apply.
    BadRules(String),
    /// The start position could not be read; the game starts from the start position.
    BadPosition(String),
    /// The deal or Chess960 seed is not a number.
    BadSeed(String),
    /// Move `ply` (1-based) could not be played; the game stops before it.
    BadMove {
        /// Which move (1 is the first).
        ply: usize,
        /// Its text, shortened.
        text: String,
        /// Why.
        error: MoveError,
    },
    /// More than [`MAX_MOVES`] moves; the rest were dropped.
    TooManyMoves,
    /// The compact game (`g=`) could not be decoded.
    BadCompact,
    /// A view option had a value that means nothing; it was ignored.
    BadOption {
        /// The parameter.
        name: String,
        /// Its value, shortened.
        value: String,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::TooLong => write!(f, "the link is too long; only its first part was read"),
            LinkError::UnknownGame(name) => write!(f, "unknown game {name:?}"),
            LinkError::BadRules(text) => write!(f, "unreadable rule options {text:?}"),
            LinkError::BadPosition(why) => write!(f, "unreadable position: {why}"),
            LinkError::BadSeed(text) => write!(f, "the seed {text:?} is not a number"),
            LinkError::BadMove { ply, text, error } => {
                write!(f, "move {ply} ({text:?}) could not be played: {error}")
            }
            LinkError::TooManyMoves => write!(f, "more than {MAX_MOVES} moves"),
            LinkError::BadCompact => write!(f, "the game in the link is damaged"),
            LinkError::BadOption { name, value } => write!(f, "{name}={value:?} means nothing"),
        }
    }
}

/// A game read from a link: what could be read of it, and the first thing that was wrong.
#[derive(Clone, Debug)]
pub struct LinkGame {
    /// The game, cut at the first move that could not be played.
    pub record: GameRecord,
    /// How to show it.
    pub view: View,
    /// The first problem found, if any.
    pub error: Option<LinkError>,
}

/// The parameters of a query string (`a=1&b=2`, with or without the `?`), decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
    /// Whether the query was cut at [`MAX_LINK`].
    pub truncated: bool,
}

impl Query {
    /// Reads a query string. `+` is a space; `%xx` escapes are decoded, and broken ones kept as
    /// they are.
    #[must_use]
    pub fn parse(query: &str) -> Query {
        let truncated = query.len() > MAX_LINK;
        let mut end = query.len().min(MAX_LINK);
        while !query.is_char_boundary(end) {
            end -= 1;
        }
        let query = query[..end].strip_prefix('?').unwrap_or(&query[..end]);
        let pairs = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (decode_component(name), decode_component(value))
            })
            .collect();
        Query { pairs, truncated }
    }

    /// The first value of `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Whether the query holds a game (`game=` or `g=`).
    #[must_use]
    pub fn has_game(&self) -> bool {
        self.get("game").is_some() || self.get("g").is_some()
    }
}

/// Reads the game in a link's query. `None` when the query holds no game (`game=` or `g=`).
/// `fallback` is the game opened when the link names an unknown one.
#[must_use]
pub fn read(query: &Query, fallback: GameKind) -> Option<LinkGame> {
    if !query.has_game() {
        return None;
    }
    let mut errors = Vec::new();
    if query.truncated {
        errors.push(LinkError::TooLong);
    }
    let record = match query.get("g") {
        Some(payload) => match decode_compact(payload) {
            Some((record, whole)) => {
                if !whole {
                    errors.push(LinkError::BadCompact);
                }
                record
            }
            None => {
                errors.push(LinkError::BadCompact);
                GameRecord::new(fallback, &default_rules(fallback), 0)
            }
        },
        None => readable_record(query, fallback, &mut errors),
    };
    let (mut record, move_error) = longest_legal_prefix(record);
    if let Some(value) = query.get("result") {
        // Only a game read whole can carry its result: not a cut, damaged or fallen-back one.
        let read_whole = errors.is_empty() && move_error.is_none();
        let ended_by_moves = record.replay(usize::MAX).game.outcome().is_some();
        match Ending::from_text(value) {
            Some(ending) if read_whole && !ended_by_moves => record.ending = Some(ending),
            _ => errors.push(bad_option("result", value)),
        }
    }
    errors.extend(move_error);
    let mut view = read_view(query, record.kind, &mut errors);
    if let Some(path) = view.at.take() {
        // A position the game does not have (a longer game's, a variation the link lost).
        let path = path.normalized();
        if record.tree().contains(&path) {
            view.at = Some(path);
        } else {
            errors.push(bad_option("ply", &path_text(&path)));
        }
    }
    // The most telling problem first: a cut link explains the rest; "too many moves" only
    // matters when nothing else went wrong.
    let rank = |error: &LinkError| match error {
        LinkError::TooLong => 0,
        LinkError::TooManyMoves => 2,
        _ => 1,
    };
    // The first of the most telling kind (no sort: each one is code in the download).
    let mut first: Option<LinkError> = None;
    for error in errors {
        if first.as_ref().is_none_or(|f| rank(&error) < rank(f)) {
            first = Some(error);
        }
    }
    Some(LinkGame { record, view, error: first })
}

/// The record of a readable link (moves not yet checked).
fn readable_record(query: &Query, fallback: GameKind, errors: &mut Vec<LinkError>) -> GameRecord {
    let name = query.get("game").unwrap_or_default();
    let (kind, implied) = match parse_variant(name.trim()) {
        Ok(found) => found,
        Err(_) => {
            errors.push(LinkError::UnknownGame(shorten(name)));
            return GameRecord::new(fallback, &default_rules(fallback), 0);
        }
    };
    let wanted = [implied, query.get("rules").unwrap_or_default()]
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .collect::<Vec<_>>()
        .join(",");
    let rules = match full_rules(kind, &wanted) {
        Some(rules) => rules,
        None => {
            errors.push(LinkError::BadRules(shorten(&wanted)));
            default_rules(kind)
        }
    };
    let seed = match query.get("seed").map(str::trim) {
        None | Some("") => 0,
        Some(text) => text.parse().unwrap_or_else(|_| {
            errors.push(LinkError::BadSeed(shorten(text)));
            0
        }),
    };
    let position = query.get("fen").or_else(|| query.get("position"));
    let start = match position.map(|text| text.replace('_', " ")) {
        Some(text) if !text.trim().is_empty() => {
            let text = text.trim().to_owned();
            match AnyGame::new(kind.name(), &rules, &StartFrom::Position(&text)) {
                Ok(_) => Start::Position(text),
                Err(error) => {
                    errors.push(LinkError::BadPosition(error.to_string()));
                    Start::Seed(seed)
                }
            }
        }
        _ => Start::Seed(seed),
    };
    let mut moves: Vec<String> = query
        .get("moves")
        .unwrap_or_default()
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
        .collect();
    if moves.len() > MAX_MOVES {
        moves.truncate(MAX_MOVES);
        errors.push(LinkError::TooManyMoves);
    }
    GameRecord::from_parts(kind, rules, start, moves)
}

/// The full rule list for the options `wanted` (a `key=value,...` list of changes), or `None`
/// when they do not read.
fn full_rules(kind: GameKind, wanted: &str) -> Option<String> {
    qi_rules::any::canonical_rules(kind, wanted).ok()
}

/// Plays the record's moves and keeps those that could be played, written canonically.
fn longest_legal_prefix(mut record: GameRecord) -> (GameRecord, Option<LinkError>) {
    let mut game = record.start_game();
    let mut canonical = Vec::with_capacity(record.moves.len());
    let mut error = None;
    for (index, text) in record.moves.iter().enumerate() {
        match game.canonical_move(text) {
            Ok(text) => {
                // Canonical text of a legal move always plays.
                if game.play(&text).is_err() {
                    break;
                }
                canonical.push(text);
            }
            Err(move_error) => {
                error = Some(LinkError::BadMove {
                    ply: index + 1,
                    text: shorten(text),
                    error: move_error,
                });
                break;
            }
        }
    }
    record.moves = canonical;
    (record, error)
}

fn read_view(query: &Query, kind: GameKind, errors: &mut Vec<LinkError>) -> View {
    let mut view = View::default();
    if let Some(value) = query.get("orientation") {
        view.orientation = side_named(kind, value);
        if view.orientation.is_none() {
            errors.push(bad_option("orientation", value));
        }
    }
    if let Some(value) = query.get("ply") {
        view.at = read_path(value.trim());
        if view.at.is_none() {
            errors.push(bad_option("ply", value));
        }
    }
    view
}

/// An error for a view option that means nothing.
#[must_use]
pub fn bad_option(name: &str, value: &str) -> LinkError {
    LinkError::BadOption { name: name.to_owned(), value: shorten(value) }
}

/// The side a link's `orientation` names in `kind`.
fn side_named(kind: GameKind, name: &str) -> Option<Side> {
    let name = name.trim().to_ascii_lowercase();
    match (name.as_str(), kind) {
        ("first", _) => Some(Side::First),
        ("second", _) => Some(Side::Second),
        ("white", GameKind::Chess) | ("red", GameKind::Xiangqi | GameKind::Banqi) => {
            Some(Side::First)
        }
        ("black", GameKind::Gomoku) => Some(Side::First),
        ("black", _) | ("white", GameKind::Gomoku) => Some(Side::Second),
        _ => None,
    }
}

/// The name a link uses for `side` in `kind`.
fn side_name(kind: GameKind, side: Side) -> &'static str {
    match (kind, side) {
        (GameKind::Chess, Side::First) => "white",
        (GameKind::Xiangqi, Side::First) => "red",
        (GameKind::Gomoku, Side::First) => "black",
        (GameKind::Gomoku, Side::Second) => "white",
        (GameKind::Banqi, Side::First) => "first",
        (GameKind::Banqi, Side::Second) => "second",
        (_, Side::Second) => "black",
    }
}

/// The start seed as a link writes it: 0 for games whose start does not depend on it (only
/// banqi deals and Chess960 starts do), so links stay short and equal games give equal links.
fn link_seed(record: &GameRecord, seed: u64) -> u64 {
    let seeded = match record.kind {
        GameKind::Banqi => true,
        GameKind::Chess => record.rules.split(',').any(|entry| entry == "variant=chess960"),
        GameKind::Xiangqi | GameKind::Gomoku => false,
    };
    if seeded { seed } else { 0 }
}

/// The rule options of `record` that differ from its game's defaults, as `key=value,...`.
fn changed_rules(record: &GameRecord) -> String {
    let defaults = default_rules(record.kind);
    let defaults: Vec<&str> = defaults.split(',').collect();
    record
        .rules
        .split(',')
        .filter(|entry| !entry.is_empty() && !defaults.contains(entry))
        .collect::<Vec<_>>()
        .join(",")
}

/// The view options as query parameters (each with a leading `&`).
fn view_params(kind: GameKind, view: &View) -> String {
    let mut out = String::new();
    if let Some(side) = view.orientation {
        out.push_str("&orientation=");
        out.push_str(side_name(kind, side));
    }
    if let Some(path) = &view.at {
        out.push_str("&ply=");
        out.push_str(&path_text(path));
    }
    out
}

/// A position in the move tree as the `ply` parameter writes it (see the module docs).
fn path_text(path: &Path) -> String {
    let mut out = String::new();
    for branch in &path.branches {
        out.push_str(&format!("{}.{}.", branch.at, branch.index));
    }
    out.push_str(&path.ply.to_string());
    out
}

/// Reads [`path_text`]'s form: `None` unless it is an odd count of numbers joined by `.`, no
/// deeper than a record keeps ([`crate::movetext::MAX_DEPTH`]).
fn read_path(text: &str) -> Option<Path> {
    let numbers: Vec<usize> =
        text.split('.').map(|n| n.parse().ok()).collect::<Option<Vec<usize>>>()?;
    let (&ply, pairs) = numbers.split_last()?;
    if pairs.len() % 2 != 0 || pairs.len() / 2 > crate::movetext::MAX_DEPTH {
        return None;
    }
    let branches =
        pairs.chunks(2).map(|pair| crate::tree::Branch { at: pair[0], index: pair[1] }).collect();
    Some(Path { branches, ply })
}

/// The readable query (without `?`) for a game.
#[must_use]
pub fn readable(record: &GameRecord, view: &View) -> String {
    let mut out = format!("game={}", record.kind.name());
    let rules = changed_rules(record);
    if !rules.is_empty() {
        out.push_str("&rules=");
        out.push_str(&encode_component(&rules));
    }
    match &record.start {
        Start::Seed(seed) => match link_seed(record, *seed) {
            0 => {}
            seed => out.push_str(&format!("&seed={seed}")),
        },
        Start::Position(position) => {
            out.push_str("&fen=");
            out.push_str(&encode_component(position));
        }
    }
    if !record.moves.is_empty() {
        let moves: Vec<String> = record.moves.iter().map(|m| encode_component(m)).collect();
        out.push_str("&moves=");
        out.push_str(&moves.join("+"));
    }
    out.push_str(&result_param(record));
    // No variations here: a position in one is shown from where it leaves the main line.
    let at = view.at.as_ref().map(|path| match path.branches.first() {
        Some(branch) => Path::main(branch.at),
        None => path.clone(),
    });
    out.push_str(&view_params(record.kind, &View { at, ..view.clone() }));
    out
}

/// The `result` parameter (with its leading `&`) of a game with a recorded ending, else nothing.
fn result_param(record: &GameRecord) -> String {
    record.ending.map_or_else(String::new, |ending| {
        format!("&result={}", encode_component(&ending.to_text()))
    })
}

/// The compact query (without `?`) for a game: `g=<payload>` and the view options.
#[must_use]
pub fn compact(record: &GameRecord, view: &View) -> String {
    let result = result_param(record);
    format!("g={}{result}{}", encode_compact(record), view_params(record.kind, view))
}

const VERSION: u8 = 1;
const KINDS: [GameKind; 4] =
    [GameKind::Chess, GameKind::Xiangqi, GameKind::Banqi, GameKind::Gomoku];

/// The compact payload of a game. Moves that cannot be played end it.
#[must_use]
pub fn encode_compact(record: &GameRecord) -> String {
    let mut bytes = vec![VERSION];
    let rules = changed_rules(record);
    let kind_bits = KINDS.iter().position(|&k| k == record.kind).unwrap_or(0) as u8;
    let mut flags = kind_bits;
    if !rules.is_empty() {
        flags |= 1 << 2;
    }
    let tree = tree_text(record);
    if tree.is_some() {
        flags |= 1 << 4;
    }
    if matches!(record.start, Start::Position(_)) {
        flags |= 1 << 3;
    }
    bytes.push(flags);
    if !rules.is_empty() {
        push_text(&mut bytes, &rules);
    }
    match &record.start {
        Start::Seed(seed) => push_varint(&mut bytes, link_seed(record, *seed)),
        Start::Position(position) => push_text(&mut bytes, position),
    }
    let mut game = record.start_game();
    let mut indices = Vec::with_capacity(record.moves.len());
    for text in &record.moves {
        let legal = sorted_moves(&game);
        let Ok(canonical) = game.canonical_move(text) else { break };
        let Some(index) = legal.iter().position(|m| *m == canonical) else { break };
        if game.play(&canonical).is_err() {
            break;
        }
        indices.push((index, legal.len()));
    }
    push_varint(&mut bytes, indices.len() as u64);
    for (index, count) in indices {
        bytes.push(index as u8);
        if count > 256 {
            bytes.push((index >> 8) as u8);
        }
    }
    if let Some(tree) = tree {
        push_text(&mut bytes, &tree);
    }
    base64url(&bytes)
}

/// The record's move tree for a link, main-line moves as `.`; `None` without notes, or when it
/// is longer than [`MAX_TREE_TEXT`].
fn tree_text(record: &GameRecord) -> Option<String> {
    if !record.has_notes() {
        return None;
    }
    let mut tree = record.tree();
    for mv in &mut tree.moves {
        ".".clone_into(mv);
    }
    let text = crate::movetext::write(&tree);
    (text.len() <= MAX_TREE_TEXT).then_some(text)
}

/// Puts a link's tree text into `record`, whose main line is read: the `.`s stand for its
/// moves. `false` when the text is not a tree of this game.
fn adopt_tree_text(record: &mut GameRecord, text: &str) -> bool {
    if text.len() > MAX_TREE_TEXT {
        return false;
    }
    let Ok(mut tree) = crate::movetext::read(text) else { return false };
    if tree.moves.len() > record.moves.len() || tree.moves.iter().any(|m| m != ".") {
        return false;
    }
    tree.moves.clone_from(&record.moves);
    record.put_tree(tree);
    record.keep_playable_variations();
    true
}

/// Reads a compact payload. `None` when its header (game, rules, start) is damaged or its
/// position does not read; a payload damaged in its moves gives the moves before the damage,
/// and `false`.
#[must_use]
pub fn decode_compact(payload: &str) -> Option<(GameRecord, bool)> {
    let bytes = from_base64url(payload.trim())?;
    let mut reader = Reader { bytes: &bytes, at: 0 };
    if reader.byte()? != VERSION {
        return None;
    }
    let flags = reader.byte()?;
    if flags >> 5 != 0 {
        return None;
    }
    let kind = KINDS[usize::from(flags & 3)];
    let changes = if flags & 4 != 0 { reader.text()? } else { String::new() };
    let rules = full_rules(kind, &changes)?;
    let start = if flags & 8 != 0 {
        Start::Position(reader.text()?)
    } else {
        Start::Seed(reader.varint()?)
    };
    if let Start::Position(position) = &start {
        AnyGame::new(kind.name(), &rules, &StartFrom::Position(position)).ok()?;
    }
    let mut record = GameRecord::from_parts(kind, rules, start, Vec::new());
    let Some(count) = reader.varint().and_then(|count| usize::try_from(count).ok()) else {
        return Some((record, false));
    };
    let mut game = record.start_game();
    for _ in 0..count.min(MAX_MOVES) {
        let legal = sorted_moves(&game);
        let Some(mut index) = reader.byte().map(usize::from) else { return Some((record, false)) };
        if legal.len() > 256 {
            let Some(high) = reader.byte() else { return Some((record, false)) };
            index |= usize::from(high) << 8;
        }
        let Some(text) = legal.get(index).cloned() else { return Some((record, false)) };
        if game.play(&text).is_err() {
            return Some((record, false));
        }
        record.moves.push(text);
    }
    // The tree: a damaged one is left out, and the game opens with its main line.
    let tree_read =
        flags & 16 == 0 || reader.text().is_some_and(|text| adopt_tree_text(&mut record, &text));
    let whole = count <= MAX_MOVES && tree_read && reader.at == bytes.len();
    Some((record, whole))
}

/// The legal moves of `game` in coordinates, sorted: the order both ends of a link agree on.
fn sorted_moves(game: &AnyGame) -> Vec<String> {
    let mut moves = game.legal_moves();
    moves.sort_unstable();
    moves
}

fn push_varint(bytes: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        bytes.push((value as u8) | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
}

fn push_text(bytes: &mut Vec<u8>, text: &str) {
    push_varint(bytes, text.len() as u64);
    bytes.extend_from_slice(text.as_bytes());
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn text(&mut self) -> Option<String> {
        let len = usize::try_from(self.varint()?).ok()?;
        let end = self.at.checked_add(len)?;
        let text = std::str::from_utf8(self.bytes.get(self.at..end)?).ok()?.to_owned();
        self.at = end;
        Some(text)
    }
}

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(BASE64URL[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

fn from_base64url(text: &str) -> Option<Vec<u8>> {
    let mut text = text.trim_end_matches('=').as_bytes();
    if text.len() % 4 == 1 {
        // A lone last character holds no whole byte (a cut link): read what comes before it.
        text = &text[..text.len() - 1];
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            // Standard base64's `+` and `/` read too (a `+` may arrive as a space).
            let value = match c {
                b'+' | b' ' => 62,
                b'/' => 63,
                _ => BASE64URL.iter().position(|&a| a == c)? as u32,
            };
            n |= value << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// Percent-encodes a query value: letters, digits and `-._~*:/,` stay; a space becomes `+`.
#[must_use]
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'*'
            | b':'
            | b'/'
            | b',' => out.push(char::from(byte)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Decodes a query value: `+` is a space, `%xx` a byte; broken escapes and bytes that are not
/// UTF-8 are kept as replacement text, never an error.
#[must_use]
pub fn decode_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if let Some(byte) = escaped(bytes.get(i + 1..i + 3)) => {
                out.push(byte);
                i += 2;
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The byte of the two hex digits after a `%`.
fn escaped(digits: Option<&[u8]>) -> Option<u8> {
    let digits = std::str::from_utf8(digits?).ok()?;
    u8::from_str_radix(digits, 16).ok().filter(|_| digits.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// At most [`QUOTE`] characters of `text`, for error messages.
fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(QUOTE).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests;
