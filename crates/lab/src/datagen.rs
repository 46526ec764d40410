//! Self-play at a fixed node count: the games of [`crate::data`]'s files.
//!
//! Each game starts from the rules' start (a seeded banqi deal, a seeded Chess960 start), plays
//! a few random moves so that no two games are alike, and is thrown away and drawn again when
//! the full engine then judges the position lopsided. From there the engine plays both sides at
//! a fixed node count (the same work on any machine, so the data does not depend on how busy
//! the machine was), and each position is written with the search's score. Positions a static
//! evaluation cannot judge are marked not kept: the side to move in check, a best move that
//! takes a piece (the score is about the exchange, not the position), a mate found. A game is
//! called won when the search finds a mate, and drawn after long quiet equality, as match
//! referees adjudicate.

use std::sync::atomic::AtomicBool;

use qi_ai::search::native_clock;
use qi_ai::{AnyEngine, LevelSettings, Limits, Score};
use qi_rules::any::{AnyGame, AnyMove, StartFrom};
use qi_rules::zobrist::splitmix64;
use qi_rules::{Cell, Game, GameKind, Side};

use crate::data::{GameData, MAX_SCORE, NOT_KEPT, Wdl};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// The variant's name (`chess`, `chess960`, `xiangqi`, `banqi`, `gomoku`).
    pub variant: String,
    /// Rule options (`key=value,...`).
    pub rules: String,
    /// Nodes searched for each move.
    pub nodes: u64,
    /// Random moves at the start of each game.
    pub random_plies: usize,
    /// The most a position after the random moves may be judged off balance (the game's score
    /// units) to be played on.
    pub max_opening_score: i32,
    /// Plies after which an unfinished game is called drawn.
    pub max_plies: usize,
    /// A position string to start every game from instead of the rules' start.
    pub start: Option<String>,
}

impl SelfPlay {
    /// The lab's defaults for `variant`: 5,000 nodes a move, 8 random plies (4 in banqi,
    /// whose deal already varies; 2 stones near the centre in gomoku), openings within 300
    /// (1,000 in gomoku, whose scores run larger: 300 is a 57% chance there, and the fitted
    /// shape values judge nearly every opening beyond it, since freestyle favours Black).
    ///
    /// # Errors
    /// The rules crate's message for an unknown variant or bad rules.
    pub fn new(variant: &str, rules: &str) -> Result<SelfPlay, String> {
        let game = AnyGame::new(variant, rules, &StartFrom::Start { seed: 1 })
            .map_err(|e| e.to_string())?;
        let (random_plies, max_opening_score) = match game.kind() {
            GameKind::Chess | GameKind::Xiangqi => (8, 300),
            GameKind::Banqi => (4, 300),
            GameKind::Gomoku => (2, 1_000),
        };
        Ok(SelfPlay {
            variant: variant.to_owned(),
            rules: rules.to_owned(),
            nodes: 5_000,
            random_plies,
            max_opening_score,
            max_plies: 600,
            start: None,
        })
    }
}

/// Whom a search's score favours and how much, from the first player's side, in the game's
/// units; `None` for a mate.
fn first_cp(score: Score, to_move: Side) -> Option<i32> {
    let Score::Cp(cp) = score else { return None };
    Some(if to_move == Side::First { cp } else { -cp })
}

/// The random moves of an opening: any legal move, except in gomoku, where stones stay within
/// two points of the centre or of a stone already down (a stone in a far corner teaches nothing).
fn random_move(game: &AnyGame, state: &mut u64) -> Option<AnyMove> {
    let mut legal = game.legal_move_values();
    if let AnyGame::Gomoku(gomoku) = game {
        let size = gomoku.rules().size();
        let centre = Cell::new(size / 2, size / 2);
        let stones: Vec<Cell> = gomoku.history().iter().filter_map(|mv| mv.point()).collect();
        let near = |cell: Cell, other: Cell| {
            cell.file.abs_diff(other.file) <= 2 && cell.rank.abs_diff(other.rank) <= 2
        };
        legal.retain(|&mv| {
            game.move_cells(mv).is_some_and(|cells| {
                near(cells.to, centre) || stones.iter().any(|&s| near(cells.to, s))
            })
        });
    }
    if legal.is_empty() {
        return None;
    }
    *state = splitmix64(*state);
    Some(legal[(*state % legal.len() as u64) as usize])
}

/// Plays one self-play game for `seed` with `engine` (made anew for the game). Returns `None`
/// when the seed's openings keep ending the game or going off balance.
pub fn play_game(setup: &SelfPlay, engine: &mut AnyEngine, seed: u64) -> Option<GameData> {
    let clock = native_clock();
    let stop = AtomicBool::new(false);
    let settings =
        LevelSettings::full_strength(Limits { nodes: Some(setup.nodes), ..Limits::default() });
    let mut state = splitmix64(seed ^ 0x5171_da7a);
    'attempt: for _attempt in 0..20 {
        engine.new_game();
        let from = match &setup.start {
            Some(position) => StartFrom::Position(position),
            None => StartFrom::Start { seed },
        };
        let start = AnyGame::new(&setup.variant, &setup.rules, &from).ok()?;
        let mut game = start.clone();
        let mut moves = Vec::new();
        let mut scores = Vec::new();
        for _ in 0..setup.random_plies {
            let Some(mv) = random_move(&game, &mut state) else { continue 'attempt };
            if game.apply(mv).is_err() || game.outcome().is_some() {
                continue 'attempt;
            }
            moves.push(mv);
            scores.push(NOT_KEPT);
        }
        let mut quiet_plies = 0;
        let mut first_search = true;
        let result = loop {
            if let Some(outcome) = game.outcome() {
                break Wdl::from_winner(outcome.winner);
            }
            if moves.len() >= setup.max_plies {
                break Wdl::Draw;
            }
            let to_move = game.side_to_move();
            let found = engine.search_with(&game, settings, &clock, &stop, seed, &mut |_| {});
            let Some(best) = found.best else { break Wdl::from_winner(Some(to_move.other())) };
            let score = found.info.score;
            if let Score::Mate(moves_to_mate) = score {
                // A mate seen at a fixed node count is a proof: call the game.
                let winner = if moves_to_mate > 0 { to_move } else { to_move.other() };
                break Wdl::from_winner(Some(winner));
            }
            let cp = first_cp(score, to_move).unwrap_or(0);
            if first_search {
                first_search = false;
                if cp.abs() > setup.max_opening_score {
                    continue 'attempt;
                }
            }
            let noisy =
                game.in_check() || game.takes_piece(best) || cp.abs() > i32::from(MAX_SCORE);
            scores.push(if noisy { NOT_KEPT } else { cp as i16 });
            if game.apply(best).is_err() {
                return None;
            }
            moves.push(best);
            quiet_plies = if cp.abs() <= 10 { quiet_plies + 1 } else { 0 };
            if moves.len() >= 80 && quiet_plies >= 16 {
                break Wdl::Draw;
            }
        };
        return Some(GameData { start, moves, scores, result });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{DataReader, DataWriter};

    #[test]
    fn self_play_games_of_every_kind_are_written_and_read_back() {
        for variant in ["chess", "xiangqi", "banqi", "gomoku"] {
            let mut setup = SelfPlay::new(variant, "").unwrap();
            setup.nodes = 300;
            setup.max_plies = 60;
            let mut engine = AnyEngine::default();
            let game = play_game(&setup, &mut engine, 7).unwrap();
            assert!(game.moves.len() > setup.random_plies, "{variant}: {} plies", game.moves.len());
            assert!(game.scores[..setup.random_plies].iter().all(|&s| s == NOT_KEPT));
            assert!(game.kept() > 0, "{variant}: no position kept");
            let mut writer = DataWriter::new(Vec::new()).unwrap();
            writer.write(&game).unwrap();
            let bytes = writer.into_inner();
            let read = DataReader::new(&bytes[..]).unwrap().next().unwrap().unwrap();
            assert_eq!(read.moves, game.moves, "{variant}");
            assert_eq!(read.scores, game.scores, "{variant}");
            // The same seed plays the same game (fixed nodes: no clock in it).
            let again = play_game(&setup, &mut AnyEngine::default(), 7).unwrap();
            assert_eq!(again.moves, game.moves, "{variant}");
        }
    }

    #[test]
    fn noisy_positions_are_not_kept() {
        let mut setup = SelfPlay::new("chess", "").unwrap();
        setup.nodes = 500;
        setup.max_plies = 120;
        let game = play_game(&setup, &mut AnyEngine::default(), 3).unwrap();
        let mut position = game.start.clone();
        let mut checked = 0;
        for (&mv, &score) in game.moves.iter().zip(&game.scores) {
            if position.in_check() || position.takes_piece(mv) {
                assert_eq!(score, NOT_KEPT, "{} {mv}", position.position());
                checked += 1;
            }
            position.apply(mv).unwrap();
        }
        assert!(checked > 0, "the game had no capture nor check to test");
    }

    #[test]
    fn a_mate_found_ends_the_game_for_the_mating_side() {
        // White to mate in one (Qxf7#), and Black to mate in one (the fool's mate, ...Qh4#):
        // the first search sees the mate and the game is called, unplayed.
        for (fen, result) in [
            ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", Wdl::Win),
            ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", Wdl::Loss),
        ] {
            let mut setup = SelfPlay::new("chess", "").unwrap();
            setup.random_plies = 0;
            setup.max_opening_score = i32::MAX;
            setup.start = Some(fen.to_owned());
            let game = play_game(&setup, &mut AnyEngine::default(), 1).unwrap();
            assert_eq!(game.result, result, "{fen}");
            assert!(game.moves.is_empty(), "{fen}");
        }
    }
}
