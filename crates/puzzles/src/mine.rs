//! Candidates: positions where a player went wrong, from games engines play with mistakes
//! ([`SelfPlay`]) and from any game's moves ([`mistakes_in`]).
//!
//! A move is a candidate when a quick search (to [`quick_depth`]) sees the mover's winning
//! chance fall by [`DROP`] points or more with it and the other side left at least
//! [`Settings::winning`](crate::Settings::winning) percent to win: a mistake with something to
//! punish. In gomoku, where a mistake is one that lets the other side win by force, a move is a
//! candidate when the other side then has a victory by continuous fours (the engine's VCF
//! search, `qi_ai::gomoku::find_vcf`). The judge then searches each candidate deeply.

use std::sync::atomic::AtomicBool;

use qi_ai::review::chance;
use qi_ai::{AnyEngine, LevelSettings, Limits, Score};
use qi_rules::GameKind;
use qi_rules::any::{AnyGame, AnyMove, AnyRules, StartFrom};
use qi_rules::zobrist::splitmix64;

use crate::Settings;

/// The quick search's depth by game.
#[must_use]
pub const fn quick_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::Chess => 5,
        GameKind::Xiangqi => 5,
        GameKind::Banqi => 4,
        GameKind::Gomoku => 6,
    }
}

/// The most nodes the quick search visits in one position. A few crowded banqi positions,
/// every cannon able to take over a screen, send even a depth-4 search past 40 million nodes
/// (a minute); a chess or xiangqi position at depth 5 takes well under this. Capped, the quick
/// look stands on what it saw: it only picks candidates for the judge.
pub const QUICK_NODES: u64 = 500_000;

/// The fall in the mover's winning chance (points) that makes a move a mistake worth a look
/// (the review calls 15 a blunder; a piece lost from a level game is about 28).
pub const DROP: f64 = 20.0;

/// What the quick look saw in each position of a game: the side to move's score (none once the
/// game is over, or where a banqi piece is face down), and in gomoku whether it wins by fours.
struct Scan {
    scores: Vec<Option<Score>>,
    wins_by_fours: Vec<bool>,
}

fn scan(
    start: &AnyGame,
    moves: &[AnyMove],
    engine: &mut AnyEngine,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) -> Scan {
    let kind = start.kind();
    let limits =
        Limits { depth: Some(quick_depth(kind)), nodes: Some(QUICK_NODES), ..Limits::default() };
    let mut game = start.clone();
    let mut scan = Scan { scores: Vec::new(), wins_by_fours: Vec::new() };
    for ply in 0..=moves.len() {
        if kind == GameKind::Gomoku {
            scan.wins_by_fours.push(side_to_move_wins_by_fours(&game, now, stop));
            scan.scores.push(None);
        } else {
            let hidden = kind == GameKind::Banqi && game.position().contains(['*', '?']);
            scan.scores.push((game.outcome().is_none() && !hidden).then(|| {
                let settings = LevelSettings::full_strength(limits);
                engine.search_with(&game, settings, now, stop, 0, &mut |_| {}).info.score
            }));
        }
        match moves.get(ply) {
            Some(&mv) if game.apply(mv).is_ok() => {}
            _ => break,
        }
    }
    scan
}

/// The plies where `moves`, played from `start`, made a mistake worth judging (see the module
/// documentation). Positions with a banqi piece face down are passed over.
pub fn mistakes_in(
    start: &AnyGame,
    moves: &[AnyMove],
    engine: &mut AnyEngine,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) -> Vec<usize> {
    let kind = start.kind();
    let settings = Settings::of(kind);
    let scan = scan(start, moves, engine, now, stop);
    if kind == GameKind::Gomoku {
        // The move left the other side a win by fours: the move that let it in, and each
        // move after it while the win goes on (a forced block, or a chance to stop it let go).
        // Where the win first appears there are often two ways to it; a shorter one, after a
        // block, often has only one.
        return (0..scan.wins_by_fours.len().saturating_sub(1))
            .filter(|&ply| scan.wins_by_fours[ply + 1])
            .collect();
    }
    (0..scan.scores.len().saturating_sub(1))
        .filter(|&ply| {
            let (Some(before), Some(after)) = (scan.scores[ply], scan.scores[ply + 1]) else {
                return false;
            };
            let mover_before = chance(kind, before);
            let mover_after = 100.0 - chance(kind, after);
            mover_before - mover_after >= DROP && chance(kind, after) >= settings.winning
        })
        .collect()
}

/// Banqi's few pieces at the end make few mistakes worth a puzzle in self-play, and a crowded
/// board has two good answers nearly always: in a banqi game's open positions with at most
/// [`SPARSE_PIECES`] pieces, where the side to move still stood a fair chance (35–80%), each
/// move that would have left the other side [`Settings::winning`](crate::Settings::winning)
/// percent or more to win is a task to judge — the mistake it would have been — at most
/// [`TASKS_PER_POSITION`] a position, the worst first. Each is a position of the game with a
/// move its player had.
pub fn banqi_endgame_tasks(
    start: &AnyGame,
    moves: &[AnyMove],
    engine: &mut AnyEngine,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) -> Vec<(usize, AnyMove)> {
    let kind = start.kind();
    if kind != GameKind::Banqi {
        return Vec::new();
    }
    let settings = Settings::of(kind);
    let limits =
        Limits { depth: Some(quick_depth(kind)), nodes: Some(QUICK_NODES), ..Limits::default() };
    let mut score = |game: &AnyGame| {
        engine
            .search_with(game, LevelSettings::full_strength(limits), now, stop, 0, &mut |_| {})
            .info
            .score
    };
    let mut tasks = Vec::new();
    let mut game = start.clone();
    for (ply, &played) in moves.iter().enumerate() {
        let position = game.position();
        let board = position.split(' ').next().unwrap_or("");
        let pieces = board.chars().filter(char::is_ascii_alphabetic).count();
        if game.outcome().is_none() && !board.contains(['*', '?']) && pieces <= SPARSE_PIECES {
            let mover = chance(kind, score(&game));
            if (35.0..=80.0).contains(&mover) {
                let mut worst: Vec<(f64, AnyMove)> = game
                    .legal_move_values()
                    .into_iter()
                    .filter_map(|mv| {
                        let mut after = game.clone();
                        after.apply(mv).ok()?;
                        if after.outcome().is_some() {
                            return None;
                        }
                        let other = chance(kind, score(&after));
                        (other >= settings.winning).then_some((other, mv))
                    })
                    .collect();
                worst.sort_by(|a, b| b.0.total_cmp(&a.0));
                tasks.extend(worst.into_iter().take(TASKS_PER_POSITION).map(|(_, mv)| (ply, mv)));
            }
        }
        if game.apply(played).is_err() {
            break;
        }
    }
    tasks
}

/// Whether the solver's first answer of `found` takes the piece the task's move has just moved:
/// a piece walked into a capture is no puzzle worth keeping from [`banqi_endgame_tasks`] (the
/// game's own mistakes keep theirs: someone did play it).
#[must_use]
pub fn takes_what_just_moved(found: &crate::Found) -> bool {
    let [task, answer, ..] = found.moves[..] else { return false };
    let mut after = found.before.clone();
    let Some(arrived) = after.move_cells(task).map(|cells| cells.to) else { return false };
    if after.apply(task).is_err() {
        return false;
    }
    after.takes_piece(answer) && after.move_cells(answer).is_some_and(|cells| cells.to == arrived)
}

/// How many plies after a puzzle from [`banqi_endgame_tasks`] the next may come from the same
/// game (a sparse ending goes on for a while, and its next moves are the same idea again).
pub const ENDGAME_GAP: usize = 12;

/// The most pieces on the board for [`banqi_endgame_tasks`].
pub const SPARSE_PIECES: usize = 12;
/// The most tasks it takes from one position.
pub const TASKS_PER_POSITION: usize = 2;

/// The plies where `player` let a win go: before the move it stood at least
/// [`Settings::winning`](crate::Settings::winning) percent to win and the move cost it
/// [`DROP`] points or more (in gomoku: it won by fours before the move and no longer does at its
/// next turn). "Puzzles from this game": the position before the opponent's move that came
/// first is a puzzle for the player when the judge finds one only answer there.
pub fn missed_wins(
    start: &AnyGame,
    moves: &[AnyMove],
    player: qi_rules::Side,
    engine: &mut AnyEngine,
    now: &dyn Fn() -> f64,
    stop: &AtomicBool,
) -> Vec<usize> {
    let kind = start.kind();
    let settings = Settings::of(kind);
    let scan = scan(start, moves, engine, now, stop);
    let mut game = start.clone();
    let mut found = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        let mover = game.side_to_move();
        if game.apply(mv).is_err() {
            break;
        }
        if mover != player || game.outcome().is_some_and(|o| o.winner == Some(player)) {
            continue;
        }
        let missed = if kind == GameKind::Gomoku {
            scan.wins_by_fours.get(ply) == Some(&true)
                && scan.wins_by_fours.get(ply + 2) != Some(&true)
        } else {
            match (
                scan.scores.get(ply).copied().flatten(),
                scan.scores.get(ply + 1).copied().flatten(),
            ) {
                (Some(before), Some(after)) => {
                    let mover_before = chance(kind, before);
                    let mover_after = 100.0 - chance(kind, after);
                    mover_before >= settings.winning && mover_before - mover_after >= DROP
                }
                _ => false,
            }
        };
        if missed {
            found.push(ply);
        }
    }
    found
}

/// Whether the side to move in a gomoku game has a victory by continuous fours of at least one
/// four before the win ([`VCF_DEPTH`] fours deep, [`VCF_NODES`] nodes), found by the engine's own
/// threat search.
fn side_to_move_wins_by_fours(game: &AnyGame, now: &dyn Fn() -> f64, stop: &AtomicBool) -> bool {
    let AnyGame::Gomoku(gomoku) = game else { return false };
    let limits = Limits { nodes: Some(VCF_NODES), ..Limits::default() };
    let mut budget = qi_ai::Budget::new(limits, now, stop);
    // A five on the spot (the mover left a four open) teaches nothing: a four first.
    qi_ai::gomoku::find_vcf(gomoku, VCF_DEPTH, &mut budget).is_some_and(|line| line.len() >= 3)
}

/// How many fours deep the candidates' VCF search goes.
const VCF_DEPTH: u32 = 12;
/// The nodes it may visit.
const VCF_NODES: u64 = 100_000;

/// Games between engines that make mistakes: each move a search of [`SelfPlay::nodes`] nodes
/// with random noise of [`SelfPlay::noise`] score units on its evaluation (the app's weaker
/// levels play this way), from a few random moves so no two games are alike.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// The rules.
    pub rules: AnyRules,
    /// Nodes each move's search visits.
    pub nodes: u64,
    /// The evaluation noise, in score units.
    pub noise: i32,
    /// Random moves at the start.
    pub random_plies: usize,
    /// The longest game.
    pub max_plies: usize,
    /// Banqi: the ply after which every piece left face down is turned up, and the game
    /// goes on with nothing hidden (so that what follows can make puzzles).
    pub reveal_at: usize,
}

impl SelfPlay {
    /// The defaults for `rules`.
    #[must_use]
    pub fn new(rules: AnyRules) -> SelfPlay {
        let (nodes, noise, random_plies) = match rules.kind() {
            GameKind::Chess => (4_000, 250, 6),
            GameKind::Xiangqi => (5_000, 250, 6),
            GameKind::Banqi => (5_000, 250, 4),
            GameKind::Gomoku => (5_000, 300, 2),
        };
        SelfPlay { rules, nodes, noise, random_plies, max_plies: 240, reveal_at: 24 }
    }

    /// Plays game number `seed`: where it started and its moves.
    #[must_use]
    pub fn play(
        &self,
        seed: u64,
        engine: &mut AnyEngine,
        now: &dyn Fn() -> f64,
        stop: &AtomicBool,
    ) -> (AnyGame, Vec<AnyMove>) {
        let mut state = splitmix64(seed ^ 0x5155_7a7a_6c65);
        let Ok(mut game) = AnyGame::with_rules(self.rules, &StartFrom::Start { seed }) else {
            return (
                AnyGame::with_rules(
                    AnyRules::of(self.rules.variant()),
                    &StartFrom::Start { seed: 0 },
                )
                .expect("the default start"),
                Vec::new(),
            );
        };
        let mut start = game.clone();
        let mut moves = Vec::new();
        let limits = Limits { nodes: Some(self.nodes), ..Limits::default() };
        engine.new_game();
        for ply in 0..self.max_plies {
            if game.outcome().is_some() {
                break;
            }
            if game.kind() == GameKind::Banqi
                && ply == self.reveal_at
                && let Some(open) = revealed(&game)
            {
                game = open;
                start = game.clone();
                moves.clear();
            }
            state = splitmix64(state);
            let mv = if ply < self.random_plies {
                let legal = game.legal_move_values();
                legal.get((state % legal.len().max(1) as u64) as usize).copied()
            } else {
                let settings = LevelSettings { limits, noise: self.noise };
                engine.search_with(&game, settings, now, stop, state, &mut |_| {}).best
            };
            let Some(mv) = mv else { break };
            if game.reveals_unknown(mv) || game.apply(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        (start, moves)
    }
}

/// The banqi game with every face-down piece turned face up, from the same side to move (none
/// when a face-down piece is not known, or the game is not banqi).
#[must_use]
pub fn revealed(game: &AnyGame) -> Option<AnyGame> {
    if game.kind() != GameKind::Banqi {
        return None;
    }
    let position = game.position();
    let (board, rest) = position.split_once(' ')?;
    if board.contains('?') {
        return None;
    }
    let open = format!("{} {rest}", board.replace('*', ""));
    AnyGame::with_rules(game.rules(), &StartFrom::Position(&open)).ok()
}
