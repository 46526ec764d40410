//! The greedy player, a documented test opponent for strength matches: it captures the most
//! valuable face-up piece it can (ties at random), otherwise plays any other legal move at
//! random (flips, steps, `stop`), from a seeded generator so a match can be replayed. Like the
//! engine it never looks at a face-down identity.

use qi_rules::Game;
use qi_rules::banqi::{Banqi, BanqiMove, Square};
use qi_rules::zobrist::splitmix64;

use super::board::static_value;

/// The greedy player (see the module documentation).
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    state: u64,
}

impl GreedyPlayer {
    /// A player whose random choices follow `seed`.
    #[must_use]
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer { state: seed }
    }

    fn below(&mut self, bound: usize) -> usize {
        self.state = self.state.wrapping_add(1);
        ((u128::from(splitmix64(self.state)) * bound as u128) >> 64) as usize
    }

    /// The move to play in `game`, or `None` when there is no legal move.
    pub fn choose(&mut self, game: &Banqi) -> Option<BanqiMove> {
        let moves = game.legal_moves();
        let value = |mv: &BanqiMove| match *mv {
            BanqiMove::Step { to, .. } => match game.square(to) {
                Square::FaceUp(victim) => Some(static_value(victim.role, game.rules())),
                _ => None,
            },
            _ => None,
        };
        let best = moves.iter().filter_map(value).max();
        let candidates: Vec<BanqiMove> = match best {
            Some(best) => moves.iter().copied().filter(|mv| value(mv) == Some(best)).collect(),
            None => moves,
        };
        if candidates.is_empty() {
            return None;
        }
        Some(candidates[self.below(candidates.len())])
    }
}
