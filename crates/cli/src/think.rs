//! `qi think`: one search by the built-in engine, with a line per completed depth — to try a
//! position, and to measure native search speed against the browser's.

use std::sync::atomic::AtomicBool;

use qi_ai::search::Limits;
use qi_ai::{AnyEngine, Level, LevelSettings, Score, SearchInfo};
use qi_rules::any::{AnyGame, AnyMove};

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

fn info_line(info: &SearchInfo<AnyMove>) -> String {
    let nps = info.nodes as f64 * 1000.0 / info.time_ms.max(1.0);
    format!(
        "info depth {} score {} nodes {} time {:.0} nps {nps:.0} pv {}",
        info.depth,
        score_text(info.score),
        info.nodes,
        info.time_ms,
        info.pv_text()
    )
}

/// Searches `game` at `level` or for `movetime` ms at full strength; returns the report.
pub fn think(game: &AnyGame, level: Option<u8>, movetime: Option<f64>) -> String {
    let clock = qi_ai::search::native_clock();
    let stop = AtomicBool::new(false);
    let mut engine = AnyEngine::default();
    let mut out = String::new();
    let mut report = |info: &SearchInfo<AnyMove>| {
        out.push_str(&info_line(info));
        out.push('\n');
    };
    let result = match (level, movetime) {
        (_, Some(ms)) => {
            let settings =
                LevelSettings::full_strength(Limits { time_ms: Some(ms), ..Limits::default() });
            engine.search_with(game, settings, &clock, &stop, 1, &mut report)
        }
        (level, None) => {
            engine.think(game, Level::new(level.unwrap_or(6)), &clock, &stop, 1, &mut report)
        }
    };
    let info = &result.info;
    let nps = info.nodes as f64 * 1000.0 / info.time_ms.max(1.0);
    out.push_str(&format!(
        "bestmove {} depth {} nodes {} time {:.0} nps {nps:.0}\n",
        result.best.map_or_else(|| "(none)".to_owned(), |mv| mv.to_string()),
        info.depth,
        info.nodes,
        info.time_ms
    ));
    out
}
