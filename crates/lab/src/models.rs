//! The evaluations the tuner fits: for each game, how a position of the data becomes a
//! [`Sample`] (the evaluation's own terms, counted), and how fitted weights are written back as
//! the engine's `weights.rs`.

use std::fmt::Write as _;

use qi_ai::banqi::eval as banqi_eval;
use qi_ai::chess::eval as chess_eval;
use qi_ai::gomoku::eval as gomoku_eval;
use qi_ai::terms::Terms;
use qi_ai::xiangqi::eval as xiangqi_eval;
use qi_rules::any::AnyGame;
use qi_rules::chess::shakmaty::{Color, Position};
use qi_rules::{GameKind, Side};

use crate::data::Wdl;
use crate::tune::Sample;

/// One game's evaluation as the tuner sees it. Weight `2p` is parameter `p`'s middlegame
/// value and `2p + 1` its endgame value.
#[derive(Clone, Debug)]
pub struct Model {
    /// The game.
    pub kind: GameKind,
    /// The groups of parameters in order, each with how many it holds.
    pub groups: &'static [(&'static str, usize)],
    /// The weights the engine uses now, as the tuner's flat list.
    pub weights: Vec<f64>,
    /// Where the engine keeps its weights, from the workspace's root.
    pub file: &'static str,
    /// What the two values of each pair are for (the ends of the evaluation's blend).
    pub pair: &'static str,
}

/// A counter of how often each parameter counts for one side.
struct Counts(Vec<i32>);

impl Terms for Counts {
    fn add(&mut self, param: usize, count: i32) {
        self.0[param] += count;
    }
}

impl Model {
    /// The model of `kind`'s evaluation.
    #[must_use]
    pub fn for_game(kind: GameKind) -> Model {
        let (groups, weights, file, pair): (_, &[[i32; 2]], _, _) = match kind {
            GameKind::Chess => (
                chess_eval::GROUPS,
                chess_eval::weights(),
                "crates/ai/src/chess/weights.rs",
                "(middlegame, endgame)",
            ),
            GameKind::Xiangqi => (
                xiangqi_eval::GROUPS,
                xiangqi_eval::weights(),
                "crates/ai/src/xiangqi/weights.rs",
                "(middlegame, endgame)",
            ),
            GameKind::Gomoku => (
                gomoku_eval::GROUPS,
                gomoku_eval::weights(),
                "crates/ai/src/gomoku/weights.rs",
                "(few stones, a crowded board)",
            ),
            GameKind::Banqi => (
                banqi_eval::GROUPS,
                banqi_eval::weights(),
                "crates/ai/src/banqi/weights.rs",
                "(pieces face down, all face up)",
            ),
        };
        let weights = weights.iter().flat_map(|&[a, b]| [f64::from(a), f64::from(b)]).collect();
        Model { kind, groups, weights, file, pair }
    }

    /// The number of parameters (half the weights).
    #[must_use]
    pub fn params(&self) -> usize {
        self.weights.len() / 2
    }

    /// The sample of `game`'s position, scored `score` by the search and ended `result` (both
    /// from the first player's side); `None` for a position of another game, or one the
    /// evaluation does not judge (a gomoku position with a five or a winning four to make,
    /// which the search answers exactly; banqi before the first flip).
    #[must_use]
    pub fn sample(&self, game: &AnyGame, score: i16, result: Wdl) -> Option<Sample> {
        let params = self.params();
        let mut sides = [Counts(vec![0; params]), Counts(vec![0; params])];
        // What scales every term (banqi's weights are 64ths, and fade before the no-progress
        // draw).
        let mut base_scale = 1.0f32;
        // The phase, its full value, what divides a drawish ending's score and whether each
        // side's lead would be drawish, and the tempo.
        let (phase, full, drawish_scale, drawish, tempo) = match (self.kind, game) {
            (GameKind::Chess, AnyGame::Chess(chess)) => {
                let position = chess.shakmaty_position();
                let board = position.board();
                let phase = chess_eval::terms(board, &mut sides);
                let drawish =
                    [Color::White, Color::Black].map(|side| chess_eval::drawish(board, side));
                (
                    phase,
                    chess_eval::FULL_PHASE,
                    chess_eval::DRAWISH_SCALE,
                    drawish,
                    chess_eval::TEMPO,
                )
            }
            (GameKind::Xiangqi, AnyGame::Xiangqi(xiangqi)) => {
                let shape = xiangqi_eval::terms(&xiangqi_eval::mirror(xiangqi), &mut sides);
                let drawish = shape.can_attack.map(|can| !can);
                (
                    shape.phase,
                    xiangqi_eval::MAX_PHASE,
                    xiangqi_eval::DRAWISH_SCALE,
                    drawish,
                    xiangqi_eval::TEMPO,
                )
            }
            (GameKind::Gomoku, AnyGame::Gomoku(gomoku)) => {
                if !gomoku_eval::is_quiet(gomoku) {
                    return None;
                }
                let phase = gomoku_eval::terms(gomoku, &mut sides);
                // The terms are by colour; the data's side is the first seat's.
                if gomoku.colour_of(Side::First) != Side::First {
                    sides.swap(0, 1);
                }
                (phase, gomoku_eval::FULL_PHASE, 1, [false; 2], 0)
            }
            (GameKind::Banqi, AnyGame::Banqi(banqi)) => {
                let shape = banqi_eval::terms(banqi, &mut sides)?;
                // The terms are by colour; the data's side is the first seat's.
                if banqi.colour_of(Side::First).is_some_and(|colour| colour.index() != 0) {
                    sides.swap(0, 1);
                }
                base_scale = shape.fade_left as f32 / shape.fade as f32 / banqi_eval::UNIT as f32;
                (shape.phase, banqi_eval::FULL_PHASE, 1, [false; 2], 0)
            }
            _ => return None,
        };
        let (mg_share, eg_share) =
            (phase as f32 / full as f32, (full - phase) as f32 / full as f32);
        let mut features = Vec::with_capacity(128);
        let mut blended = 0.0f64;
        for (param, (first, second)) in sides[0].0.iter().zip(&sides[1].0).enumerate() {
            let count = (first - second) as f32;
            if count != 0.0 {
                features.push(((2 * param) as u32, count * mg_share));
                features.push(((2 * param + 1) as u32, count * eg_share));
                blended += f64::from(count * mg_share) * self.weights[2 * param]
                    + f64::from(count * eg_share) * self.weights[2 * param + 1];
            }
        }
        let ahead = usize::from(blended < 0.0);
        let scale = base_scale
            * if blended != 0.0 && drawish[ahead] { 1.0 / drawish_scale as f32 } else { 1.0 };
        let tempo = tempo as f32;
        let offset = if game.side_to_move() == Side::First { tempo } else { -tempo };
        Some(Sample {
            features,
            scale,
            offset,
            result: result.first_score() as f32,
            score: Some(f32::from(score)),
        })
    }

    /// The Rust source of the engine's weights file for `weights`, saying how they were made.
    #[must_use]
    pub fn rust_source(&self, weights: &[f64], made_from: &str) -> String {
        let game = format!("{:?}", self.kind).to_lowercase();
        let pair = self.pair;
        let mut out = format!(
            "//! The {game} evaluation's weights: a {pair} pair for each of the\n\
             //! evaluation's parameters, in the order of its layout (`eval::PARAMS`). Written by `qi tune`;\n\
             //! the line below says how they were made.\n//!\n"
        );
        for line in made_from.lines() {
            let _ = writeln!(out, "//! {line}");
        }
        // The length is written out, not named from `eval`, so the weights depend on nothing;
        // the engine's `eval::weights` returns them as `[_; PARAMS]`, so a count that does not
        // fit the layout does not compile.
        let total: usize = self.groups.iter().map(|(_, count)| count).sum();
        let _ =
            write!(out, "\n#[rustfmt::skip]\npub(super) const WEIGHTS: [[i32; 2]; {total}] = [\n");
        let mut param = 0;
        for (name, count) in self.groups {
            let _ = writeln!(out, "    // {name}");
            for row in (0..*count).collect::<Vec<_>>().chunks(8) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|i| {
                        let p = param + i;
                        format!(
                            "[{}, {}],",
                            weights[2 * p].round() as i32,
                            weights[2 * p + 1].round() as i32
                        )
                    })
                    .collect();
                let _ = writeln!(out, "    {}", cells.join(" "));
            }
            param += count;
        }
        out.push_str("];\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::Dataset;
    use qi_rules::any::StartFrom;
    use qi_rules::zobrist::splitmix64;

    /// Random positions of a few random games.
    fn positions(variant: &str, n: usize) -> Vec<AnyGame> {
        let mut state = 5;
        let mut out = Vec::new();
        for g in 0..n {
            let mut game = AnyGame::new(variant, "", &StartFrom::Start { seed: 0 }).unwrap();
            for _ in 0..(g * 7 % 130) {
                let legal = game.legal_move_values();
                if legal.is_empty() {
                    break;
                }
                state = splitmix64(state);
                game.apply(legal[(state % legal.len() as u64) as usize]).unwrap();
            }
            out.push(game);
        }
        out
    }

    #[test]
    fn a_samples_evaluation_is_the_engines() {
        let model = Model::for_game(GameKind::Chess);
        let mut data = Dataset::default();
        let games = positions("chess", 200);
        for game in &games {
            data.push(&model.sample(game, 0, Wdl::Draw).unwrap());
        }
        for (i, game) in games.iter().enumerate() {
            let AnyGame::Chess(chess) = game else { unreachable!() };
            let position = chess.shakmaty_position();
            let engine = chess_eval::evaluate(position.board(), position.turn());
            let white = if position.turn() == Color::White { engine } else { -engine };
            // The engine divides in integers (twice in a drawish ending); the model does not.
            let model_eval = data.evaluate(i, &model.weights);
            assert!(
                (model_eval - f64::from(white)).abs() <= 2.0,
                "{}: {model_eval} vs {white}",
                game.position()
            );
        }
    }

    #[test]
    fn a_xiangqi_samples_evaluation_is_the_engines() {
        let model = Model::for_game(GameKind::Xiangqi);
        let mut data = Dataset::default();
        for (i, game) in positions("xiangqi", 200).iter().enumerate() {
            data.push(&model.sample(game, 0, Wdl::Draw).unwrap());
            let AnyGame::Xiangqi(xiangqi) = game else { unreachable!() };
            let side = usize::from(game.side_to_move() == Side::Second);
            let engine = xiangqi_eval::evaluate(&xiangqi_eval::mirror(xiangqi), side);
            let red = if side == 0 { engine } else { -engine };
            // The engine divides in integers; the model does not.
            let model_eval = data.evaluate(i, &model.weights);
            assert!(
                (model_eval - f64::from(red)).abs() <= 2.0,
                "{}: {model_eval} vs {red}",
                game.position()
            );
        }
    }

    #[test]
    fn a_gomoku_samples_evaluation_is_the_engines() {
        let model = Model::for_game(GameKind::Gomoku);
        let mut data = Dataset::default();
        let mut checked = 0;
        for game in positions("gomoku", 200) {
            let AnyGame::Gomoku(gomoku) = &game else { unreachable!() };
            let Some(sample) = model.sample(&game, 0, Wdl::Draw) else {
                assert!(!gomoku_eval::is_quiet(gomoku), "{}", game.position());
                continue;
            };
            data.push(&sample);
            let engine = gomoku_eval::evaluate(gomoku);
            let black = if gomoku.colour_to_move() == Side::First { engine } else { -engine };
            // The engine divides the blend in integers; the model does not.
            let model_eval = data.evaluate(checked, &model.weights);
            assert!(
                (model_eval - f64::from(black)).abs() <= 1.0,
                "{}: {model_eval} vs {black}",
                game.position()
            );
            checked += 1;
        }
        assert!(checked >= 50, "only {checked} quiet positions");
    }

    #[test]
    fn the_written_weights_are_the_engines_files() {
        let body = |text: &str| text[text.find("#[rustfmt::skip]").unwrap()..].to_owned();
        for (kind, file) in [
            (GameKind::Chess, include_str!("../../ai/src/chess/weights.rs")),
            (GameKind::Xiangqi, include_str!("../../ai/src/xiangqi/weights.rs")),
            (GameKind::Gomoku, include_str!("../../ai/src/gomoku/weights.rs")),
            (GameKind::Banqi, include_str!("../../ai/src/banqi/weights.rs")),
        ] {
            let model = Model::for_game(kind);
            assert_eq!(model.weights.len(), 2 * model.groups.iter().map(|(_, n)| n).sum::<usize>());
            let source = model.rust_source(&model.weights, "Made from: anything.");
            assert_eq!(body(&source), body(file), "{kind:?}");
        }
    }

    #[test]
    fn a_banqi_samples_evaluation_is_the_engines() {
        let model = Model::for_game(GameKind::Banqi);
        let mut data = Dataset::default();
        let mut checked = 0;
        for game in positions("banqi", 200) {
            let AnyGame::Banqi(banqi) = &game else { unreachable!() };
            let Some(sample) = model.sample(&game, 0, Wdl::Draw) else {
                assert!(banqi.colour_of(Side::First).is_none(), "{}", game.position());
                continue;
            };
            data.push(&sample);
            let engine = banqi_eval::evaluate(banqi);
            let first = if game.side_to_move() == Side::First { engine } else { -engine };
            // The engine divides in integers (the blend, then the fade); the model does not.
            let model_eval = data.evaluate(checked, &model.weights);
            assert!(
                (model_eval - f64::from(first)).abs() <= 2.0,
                "{}: {model_eval} vs {first}",
                game.position()
            );
            checked += 1;
        }
        assert!(checked >= 150, "only {checked} positions after the first flip");
    }

    #[test]
    fn a_position_of_another_game_is_no_sample() {
        let model = Model::for_game(GameKind::Chess);
        let xiangqi = AnyGame::new("xiangqi", "", &StartFrom::Start { seed: 0 }).unwrap();
        assert!(model.sample(&xiangqi, 0, Wdl::Draw).is_none());
        let chess = AnyGame::new("chess", "", &StartFrom::Start { seed: 0 }).unwrap();
        for kind in [GameKind::Xiangqi, GameKind::Gomoku, GameKind::Banqi] {
            assert!(Model::for_game(kind).sample(&chess, 0, Wdl::Draw).is_none());
        }
    }
}
