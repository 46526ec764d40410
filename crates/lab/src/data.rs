//! The lab's data file: self-played games, each position with the search's score and the game's
//! result, for fitting evaluations ([`crate::tune`]) and training networks.
//!
//! # Why games, not positions
//! The chess community's formats keep one packed board per position: marlinformat and bullet's
//! `ChessBoard` take 32 bytes (occupancy, a nibble per piece, score, result). Stockfish's
//! `.binpack` instead chains the positions of a game, each as the move that leads to it, and is
//! many times smaller. Self-play data comes in games, so this format keeps games too: a start
//! position, then for each ply the score and the move played (three bytes a position in chess,
//! about a tenth of a packed board), with the result once per game. It serves all four games
//! alike (a xiangqi board would need 40 bytes packed, a 15x15 gomoku board over 50), and banqi's
//! face-down deal travels in the start position, so every flip replays exactly. Reading replays
//! the moves with the rules crate, a few microseconds a position.
//!
//! # Layout (little-endian)
//! The file starts with [`MAGIC`]; then games follow to the end, each:
//! - the game's kind, one byte (0 chess, 1 xiangqi, 2 banqi, 3 gomoku);
//! - its rule options and its start position as text, each a varint byte length and UTF-8
//!   (the rules in their canonical form, the start as the game's own position string);
//! - the number of plies, a varint;
//! - the result from the first player's side: 0 lost, 1 drawn, 2 won (marlinformat's order);
//! - for each ply: the score of the position before it, from the first player's side, as an
//!   `i16` ([`NOT_KEPT`] for a position not meant for training: an opening move played at
//!   random, a side in check, a capture or a mate in the air), then the move played, as its
//!   index among the position's legal moves sorted by their coordinate text, in one byte, or two
//!   when the position has more than 256 moves (as the app's links write moves). Sorting by
//!   text keeps the file readable whatever order a later move generator lists moves in.
//!
//! Every file is untrusted input: a damaged one gives a [`DataError`] saying where and what, and
//! the games before it are kept.

use std::fmt;
use std::io::{self, Read, Write};

use qi_rules::any::{AnyGame, AnyMove, StartFrom};
use qi_rules::{GameKind, Side};

/// The first eight bytes of every data file (the last digit is the format's version).
pub const MAGIC: &[u8; 8] = b"QIDATA1\n";
/// The score of a position not meant for training.
pub const NOT_KEPT: i16 = i16::MIN;
/// The largest score kept; larger ones (mates) are not kept.
pub const MAX_SCORE: i16 = 30_000;
/// The longest rule list or start position read, in bytes.
const MAX_TEXT: u64 = 4096;
/// The most plies a game may have.
pub const MAX_PLIES: u64 = 4096;

/// How a game ended, from the first player's side (White, Red, gomoku's Black, banqi's first
/// to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// The first player lost.
    Loss,
    /// Drawn.
    Draw,
    /// The first player won.
    Win,
}

impl Wdl {
    /// The result as a score for the first player: 0, 0.5 or 1.
    #[must_use]
    pub fn first_score(self) -> f64 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }

    /// The result of a game with this winner (`None`: drawn).
    #[must_use]
    pub fn from_winner(winner: Option<Side>) -> Wdl {
        match winner {
            Some(Side::First) => Wdl::Win,
            Some(Side::Second) => Wdl::Loss,
            None => Wdl::Draw,
        }
    }

    fn byte(self) -> u8 {
        match self {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        }
    }
}

/// One game of a data file.
#[derive(Clone, Debug)]
pub struct GameData {
    /// The position it started from (no moves played).
    pub start: AnyGame,
    /// The moves played.
    pub moves: Vec<AnyMove>,
    /// For each move, the score of the position before it from the first player's side
    /// ([`NOT_KEPT`] when not for training).
    pub scores: Vec<i16>,
    /// How it ended.
    pub result: Wdl,
}

impl GameData {
    /// Calls `visit` with each position kept for training (its score not [`NOT_KEPT`]), its
    /// score from the first player's side, and the result.
    ///
    /// # Errors
    /// The ply (1-based) of a move that cannot be played (a game not made by [`DataReader`]).
    pub fn for_each_position(
        &self,
        mut visit: impl FnMut(&AnyGame, i16, Wdl),
    ) -> Result<(), usize> {
        let mut game = self.start.clone();
        for (ply, (&mv, &score)) in self.moves.iter().zip(&self.scores).enumerate() {
            if score != NOT_KEPT {
                visit(&game, score, self.result);
            }
            game.apply(mv).map_err(|_| ply + 1)?;
        }
        Ok(())
    }

    /// The number of positions kept for training.
    #[must_use]
    pub fn kept(&self) -> usize {
        self.scores.iter().filter(|&&score| score != NOT_KEPT).count()
    }
}

/// What was wrong with a data file, and where.
#[derive(Debug)]
pub struct DataError {
    /// The byte offset in the file where the bad part starts.
    pub offset: u64,
    /// What was wrong.
    pub what: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.what)
    }
}

impl std::error::Error for DataError {}

fn kind_byte(kind: GameKind) -> u8 {
    match kind {
        GameKind::Chess => 0,
        GameKind::Xiangqi => 1,
        GameKind::Banqi => 2,
        GameKind::Gomoku => 3,
    }
}

fn kind_name(byte: u8) -> Option<&'static str> {
    ["chess", "xiangqi", "banqi", "gomoku"].get(usize::from(byte)).copied()
}

/// The legal moves of `game` in the file's order: sorted by coordinate text.
fn sorted_moves(game: &AnyGame) -> Vec<(String, AnyMove)> {
    let mut moves: Vec<(String, AnyMove)> =
        game.legal_move_values().into_iter().map(|mv| (mv.to_string(), mv)).collect();
    moves.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    moves
}

fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Writes games to a data file.
pub struct DataWriter<W: Write> {
    out: W,
}

impl<W: Write> DataWriter<W> {
    /// A writer that has written [`MAGIC`] (for a new file).
    ///
    /// # Errors
    /// The output's error.
    pub fn new(mut out: W) -> io::Result<DataWriter<W>> {
        out.write_all(MAGIC)?;
        Ok(DataWriter { out })
    }

    /// A writer going on with a file that already has its [`MAGIC`] (appending).
    pub fn appending(out: W) -> DataWriter<W> {
        DataWriter { out }
    }

    /// Writes one game.
    ///
    /// # Errors
    /// The output's error, or `InvalidInput` for a game whose moves cannot be played from its
    /// start or whose scores and moves differ in number.
    pub fn write(&mut self, game: &GameData) -> io::Result<()> {
        let bytes =
            encode(game).map_err(|what| io::Error::new(io::ErrorKind::InvalidInput, what))?;
        self.out.write_all(&bytes)
    }

    /// Flushes the output.
    ///
    /// # Errors
    /// The output's error.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The output, flushed or not.
    pub fn into_inner(self) -> W {
        self.out
    }
}

fn encode(game: &GameData) -> Result<Vec<u8>, String> {
    if game.moves.len() != game.scores.len() {
        return Err(format!("{} moves but {} scores", game.moves.len(), game.scores.len()));
    }
    if game.moves.len() as u64 > MAX_PLIES {
        return Err(format!("{} plies, more than {MAX_PLIES}", game.moves.len()));
    }
    let mut out = Vec::with_capacity(64 + game.moves.len() * 4);
    out.push(kind_byte(game.start.kind()));
    for text in [game.start.rules_list(), game.start.position()] {
        write_varint(&mut out, text.len() as u64);
        out.extend_from_slice(text.as_bytes());
    }
    write_varint(&mut out, game.moves.len() as u64);
    out.push(game.result.byte());
    let mut position = game.start.clone();
    for (ply, (&mv, &score)) in game.moves.iter().zip(&game.scores).enumerate() {
        out.extend_from_slice(&score.to_le_bytes());
        let moves = sorted_moves(&position);
        let index = moves
            .iter()
            .position(|(_, legal)| *legal == mv)
            .ok_or_else(|| format!("move {} ({mv}) is not legal", ply + 1))?;
        if moves.len() > 256 {
            out.extend_from_slice(&(index as u16).to_le_bytes());
        } else {
            out.push(index as u8);
        }
        position.apply(mv).map_err(|e| format!("move {} ({mv}): {e}", ply + 1))?;
    }
    Ok(out)
}

/// Reads the games of a data file, one at a time.
pub struct DataReader<R: Read> {
    input: R,
    offset: u64,
    /// Where the last complete game ends (the magic's end before any).
    complete: u64,
    failed: bool,
}

impl<R: Read> DataReader<R> {
    /// A reader of `input`, which must start with [`MAGIC`].
    ///
    /// # Errors
    /// A [`DataError`] when it does not.
    pub fn new(mut input: R) -> Result<DataReader<R>, DataError> {
        let mut magic = [0u8; 8];
        let bad = |what: &str| DataError { offset: 0, what: what.to_owned() };
        input.read_exact(&mut magic).map_err(|_| bad("too short for a Qi data file"))?;
        if &magic != MAGIC {
            return Err(bad("not a Qi data file (it does not start with QIDATA1)"));
        }
        Ok(DataReader { input, offset: 8, complete: 8, failed: false })
    }

    /// The byte offset where the last game read whole ends: what a damaged file can be cut
    /// back to, keeping every complete game.
    #[must_use]
    pub fn complete_bytes(&self) -> u64 {
        self.complete
    }

    fn fail(&mut self, offset: u64, what: impl Into<String>) -> DataError {
        self.failed = true;
        DataError { offset, what: what.into() }
    }

    fn byte(&mut self) -> Result<Option<u8>, DataError> {
        let mut byte = [0u8; 1];
        match self.input.read(&mut byte) {
            Ok(0) => Ok(None),
            Ok(_) => {
                self.offset += 1;
                Ok(Some(byte[0]))
            }
            Err(e) => Err(self.fail(self.offset, format!("cannot read: {e}"))),
        }
    }

    fn need_byte(&mut self, what: &str) -> Result<u8, DataError> {
        match self.byte()? {
            Some(byte) => Ok(byte),
            None => Err(self.fail(self.offset, format!("the file ends inside a game ({what})"))),
        }
    }

    fn varint(&mut self, what: &str, most: u64) -> Result<u64, DataError> {
        let start = self.offset;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.need_byte(what)?;
            if shift == 63 && byte > 1 {
                break; // more than 64 bits
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return if value > most {
                    Err(self.fail(start, format!("{what} is {value}, more than {most}")))
                } else {
                    Ok(value)
                };
            }
        }
        Err(self.fail(start, format!("{what} is not a number")))
    }

    fn text(&mut self, what: &str) -> Result<String, DataError> {
        let length = self.varint(what, MAX_TEXT)?;
        let start = self.offset;
        let mut bytes = vec![0u8; length as usize];
        if let Err(e) = self.input.read_exact(&mut bytes) {
            let why = if e.kind() == io::ErrorKind::UnexpectedEof {
                format!("the file ends inside a game ({what})")
            } else {
                format!("cannot read {what}: {e}")
            };
            return Err(self.fail(start, why));
        }
        self.offset += length;
        String::from_utf8(bytes).map_err(|_| self.fail(start, format!("{what} is not UTF-8")))
    }

    fn game(&mut self, kind: u8) -> Result<GameData, DataError> {
        let start_offset = self.offset - 1;
        let variant = kind_name(kind)
            .ok_or_else(|| self.fail(start_offset, format!("no game kind {kind}")))?;
        let rules = self.text("the rules")?;
        let position_offset = self.offset;
        let position = self.text("the start position")?;
        let start =
            AnyGame::new(variant, &rules, &StartFrom::Position(&position)).map_err(|e| {
                self.fail(position_offset, format!("the {variant} game cannot start: {e}"))
            })?;
        let plies = self.varint("the number of plies", MAX_PLIES)? as usize;
        let result_offset = self.offset;
        let result = match self.need_byte("the result")? {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            other => return Err(self.fail(result_offset, format!("no result {other}"))),
        };
        let mut moves = Vec::with_capacity(plies);
        let mut scores = Vec::with_capacity(plies);
        let mut game = start.clone();
        for ply in 1..=plies {
            let score =
                i16::from_le_bytes([self.need_byte("a score")?, self.need_byte("a score")?]);
            let move_offset = self.offset;
            let legal = sorted_moves(&game);
            let index = if legal.len() > 256 {
                usize::from(u16::from_le_bytes([
                    self.need_byte("a move")?,
                    self.need_byte("a move")?,
                ]))
            } else {
                usize::from(self.need_byte("a move")?)
            };
            let Some(&(_, mv)) = legal.get(index) else {
                return Err(self.fail(
                    move_offset,
                    format!("move {ply} is number {index} of {} legal moves", legal.len()),
                ));
            };
            if game.apply(mv).is_err() {
                // A legal move that cannot be played: a banqi flip of a piece the start does not
                // name. Not a game this lab writes.
                return Err(self.fail(move_offset, format!("move {ply} ({mv}) cannot be played")));
            }
            moves.push(mv);
            scores.push(score);
        }
        Ok(GameData { start, moves, scores, result })
    }
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = Result<GameData, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.byte() {
            Err(e) => Some(Err(e)),
            Ok(None) => None,
            Ok(Some(kind)) => {
                let game = self.game(kind);
                if game.is_ok() {
                    self.complete = self.offset;
                }
                Some(game)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_rules::zobrist::splitmix64;

    /// A game of random legal moves from the start of `variant` under `rules`, with made-up
    /// scores (some not kept).
    fn random_game(variant: &str, rules: &str, seed: u64, plies: usize) -> GameData {
        let start = AnyGame::new(variant, rules, &StartFrom::Start { seed }).unwrap();
        let start = AnyGame::new(variant, rules, &StartFrom::Position(&start.position())).unwrap();
        let mut game = start.clone();
        let (mut moves, mut scores) = (Vec::new(), Vec::new());
        let mut state = seed;
        while moves.len() < plies && game.outcome().is_none() {
            let legal = game.legal_move_values();
            state = splitmix64(state);
            let mv = legal[(state % legal.len() as u64) as usize];
            let score =
                if state.is_multiple_of(7) { NOT_KEPT } else { (state >> 20) as i16 % 3000 };
            if game.apply(mv).is_err() {
                break;
            }
            moves.push(mv);
            scores.push(score);
        }
        let result = [Wdl::Loss, Wdl::Draw, Wdl::Win][(seed % 3) as usize];
        GameData { start, moves, scores, result }
    }

    fn games() -> Vec<GameData> {
        vec![
            random_game("chess", "", 1, 120),
            random_game("chess960", "", 518, 80),
            random_game("xiangqi", "", 2, 150),
            random_game("banqi", "", 3, 200),
            random_game("banqi", "chain=true,capture_hidden=true", 4, 200),
            random_game("gomoku", "", 5, 60),
            random_game("gomoku", "size=20,rule=caro", 6, 300),
            random_game("chess", "", 7, 0),
        ]
    }

    fn same(a: &GameData, b: &GameData) -> bool {
        a.start.position() == b.start.position()
            && a.start.rules_list() == b.start.rules_list()
            && a.start.kind() == b.start.kind()
            && a.moves == b.moves
            && a.scores == b.scores
            && a.result == b.result
    }

    fn file_of(games: &[GameData]) -> Vec<u8> {
        let mut writer = DataWriter::new(Vec::new()).unwrap();
        for game in games {
            writer.write(game).unwrap();
        }
        writer.into_inner()
    }

    #[test]
    fn games_of_every_kind_round_trip() {
        let games = games();
        let bytes = file_of(&games);
        let read: Vec<GameData> =
            DataReader::new(&bytes[..]).unwrap().map(Result::unwrap).collect();
        assert_eq!(read.len(), games.len());
        for (a, b) in games.iter().zip(&read) {
            assert!(same(a, b), "{:?} read back differently", a.start.kind());
        }
        // Some positions have more than 256 moves (gomoku), so two-byte moves are exercised.
        assert!(games[6].moves.len() > 100);
    }

    #[test]
    fn a_chess_position_takes_about_three_bytes() {
        let game = random_game("chess", "", 11, 200);
        let bytes = file_of(std::slice::from_ref(&game));
        let varint = |n: usize| if n < 128 { 1 } else { 2 };
        let (rules, start) = (game.start.rules_list().len(), game.start.position().len());
        let header =
            1 + varint(rules) + rules + varint(start) + start + varint(game.moves.len()) + 1;
        assert_eq!(bytes.len() - MAGIC.len() - header, game.moves.len() * 3);
    }

    #[test]
    fn positions_are_replayed_with_their_scores() {
        let game = random_game("xiangqi", "", 9, 60);
        let mut seen = Vec::new();
        game.for_each_position(|position, score, result| {
            seen.push((position.position(), score, result));
        })
        .unwrap();
        assert_eq!(seen.len(), game.kept());
        let mut replay = game.start.clone();
        let mut expected = Vec::new();
        for (&mv, &score) in game.moves.iter().zip(&game.scores) {
            if score != NOT_KEPT {
                expected.push((replay.position(), score, game.result));
            }
            replay.apply(mv).unwrap();
        }
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_damaged_file_says_where_and_keeps_the_games_before() {
        let games = games();
        let bytes = file_of(&games[..3]);
        // Cut inside the third game.
        let cut = &bytes[..bytes.len() - 10];
        let read: Vec<Result<GameData, DataError>> = DataReader::new(cut).unwrap().collect();
        assert_eq!(read.len(), 3);
        assert!(read[0].is_ok() && read[1].is_ok());
        let error = read[2].as_ref().unwrap_err();
        assert!(error.what.contains("ends inside a game"), "{error}");
        // What a damaged file can be cut back to: the end of its second game.
        let mut reader = DataReader::new(cut).unwrap();
        while let Some(Ok(_)) = reader.next() {}
        let two = file_of(&games[..2]);
        assert_eq!(reader.complete_bytes(), two.len() as u64);

        assert!(DataReader::new(&b"QIDATA2\nxx"[..]).is_err());
        assert!(DataReader::new(&b"QI"[..]).is_err());

        // A move index past the legal moves.
        let mut bad = file_of(&games[..1]);
        let header =
            1 + 2 + games[0].start.rules_list().len() + games[0].start.position().len() + 2;
        bad[MAGIC.len() + header + 2] = 250;
        let error = DataReader::new(&bad[..]).unwrap().next().unwrap().unwrap_err();
        assert!(error.what.contains("legal moves"), "{error}");
        assert_eq!(error.offset as usize, MAGIC.len() + header + 2);
        // An unknown game kind.
        let mut bad = file_of(&games[..1]);
        bad[MAGIC.len()] = 9;
        let error = DataReader::new(&bad[..]).unwrap().next().unwrap().unwrap_err();
        assert!(error.what.contains("kind 9"), "{error}");
    }

    proptest::proptest! {
        /// Whatever the bytes after the magic, reading ends without a panic.
        #[test]
        fn any_bytes_read_without_panic(tail in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(&tail);
            let _ = DataReader::new(&bytes[..]).unwrap().take(50).count();
        }

        /// A valid file with one byte changed reads without a panic, and whatever it reads is
        /// a game its rules can replay.
        #[test]
        fn a_changed_byte_reads_without_panic(at in 8usize..2000, value in proptest::num::u8::ANY) {
            let mut bytes = file_of(&games()[..3]);
            // Past the magic: a file without it is refused before any game (tested above).
            let at = MAGIC.len() + at % (bytes.len() - MAGIC.len());
            bytes[at] = value;
            for game in DataReader::new(&bytes[..]).unwrap().flatten() {
                let replayed = game.for_each_position(|_, _, _| {});
                proptest::prop_assert_eq!(replayed, Ok(()));
            }
        }

        /// Random games of every kind round-trip.
        #[test]
        fn random_games_round_trip(seed in 0u64..1000, kind in 0usize..4, plies in 0usize..120) {
            let variant = ["chess", "xiangqi", "banqi", "gomoku"][kind];
            let game = random_game(variant, "", seed, plies);
            let bytes = file_of(std::slice::from_ref(&game));
            let read: Vec<GameData> = DataReader::new(&bytes[..]).unwrap().map(Result::unwrap).collect();
            proptest::prop_assert_eq!(read.len(), 1);
            proptest::prop_assert!(same(&game, &read[0]));
        }
    }
}
