//! `qi review`: the app's game review run here, search after search as the page runs them in
//! its worker (`qi_tasks::review`): each move's judgement and the winning chances it lost, the
//! moves that were checked, each player's figures and the time it all took.

use std::fmt::Write as _;

use qi_ai::Score;
use qi_ai::review::Judgement;
use qi_play::record::GameRecord;
use qi_tasks::review::{Budgets, Review};
use qi_worker::engine::review_game;

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

fn judgement_word(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Best => "best",
        Judgement::Good => "good",
        Judgement::Inaccuracy => "inaccuracy",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    }
}

/// Reviews `record` with `budgets`; the report, one line a move, then the totals.
#[must_use]
pub fn review(record: &GameRecord, budgets: Budgets) -> Option<String> {
    let clock = qi_ai::search::native_clock();
    let started = clock();
    let review = review_game(record, budgets, &clock)?;
    let spent = clock() - started;
    Some(report(&review, spent))
}

fn report(review: &Review, spent_ms: f64) -> String {
    let mut out = String::new();
    for (index, judged) in review.judgements().iter().enumerate() {
        let _ = write!(
            out,
            "move {:3} {:8} {:10} loss {:5.1}",
            index + 1,
            review.moves[index],
            judgement_word(judged.judgement),
            judged.loss
        );
        if let (Some(Some(check)), Some(first_pass)) =
            (review.checks.get(index), review.first_pass_judgement(index))
        {
            let engine = check.engine.map_or_else(|| "?".to_owned(), score_text);
            let compared = match &check.engine_choice {
                Some(choice) => format!("after {choice} {engine}"),
                None => format!("the engine's own choice; before it, again, {engine}"),
            };
            let _ = write!(
                out,
                "  checked: first pass {} {:.1} ({} then {}); after it {}, {compared}",
                judgement_word(first_pass.judgement),
                first_pass.loss,
                score_text(review.evaluations[index].score),
                score_text(review.evaluations[index + 1].score),
                check.played.map_or_else(|| "?".to_owned(), score_text),
            );
        }
        out.push('\n');
    }
    let summaries = review.summaries();
    for (player, summary) in ["first", "second"].iter().zip(&summaries) {
        let counts: Vec<String> = Judgement::ALL
            .iter()
            .zip(summary.counts)
            .map(|(judgement, count)| format!("{} {count}", judgement_word(*judgement)))
            .collect();
        let accuracy = summary.accuracy.map_or_else(|| "-".to_owned(), |a| format!("{a:.1}"));
        let _ = writeln!(out, "{player} player: {}; accuracy {accuracy}", counts.join(", "));
    }
    let checks = review.checks.iter().flatten().count();
    let _ = writeln!(
        out,
        "reviewed {} positions and checked {checks} moves ({} ms and {} ms a search) in {:.0} ms",
        review.positions(),
        review.budgets.position_ms,
        review.budgets.check_ms,
        spent_ms
    );
    out
}
