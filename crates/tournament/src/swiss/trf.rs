//! FIDE's Tournament Report File (TRF-16), the text every arbiter's program and FIDE's rating
//! office read: one fixed-column line per player with each round's opponent, colour and result.
//!
//! [`write`] writes a [`Swiss`]; with `next_round_absent` it also names the players who will
//! not be paired next (`XXZ`, the pairing programs' extension), so that bbpPairings, JaVaFo or
//! py4swiss can pair the next round from the file alone.

use super::{RoundResult, Swiss};
use crate::{Colour, Outcome};
use std::fmt::Write as _;

/// What the file says about the event besides the players.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// The tournament's name (line 012).
    pub name: String,
    /// Its first day, `YYYY/MM/DD` (line 042), if known.
    pub start: Option<String>,
    /// The chief arbiter or organiser (line 102), if any.
    pub arbiter: Option<String>,
}

/// The round's three characters after the opponent's number: colour and result.
fn round_text(result: RoundResult, numbers: &[u32]) -> String {
    let colour = |c: Colour| if c == Colour::White { 'w' } else { 'b' };
    match result {
        RoundResult::Played { opponent, colour: c, outcome } => {
            let r = match outcome {
                Outcome::Win => '1',
                Outcome::Draw => '=',
                Outcome::Loss => '0',
            };
            format!("{:>4} {} {}", numbers[opponent], colour(c), r)
        }
        RoundResult::Forfeit { opponent, colour: c, won } => {
            format!("{:>4} {} {}", numbers[opponent], colour(c), if won { '+' } else { '-' })
        }
        // A game still going is written as not yet played.
        RoundResult::Pending { .. } | RoundResult::Absent => "0000 - Z".to_owned(),
        RoundResult::PairingBye => "0000 - U".to_owned(),
        RoundResult::HalfPointBye => "0000 - H".to_owned(),
    }
}

/// Keeps a name inside its 33 columns and free of line breaks.
fn clean_name(name: &str) -> String {
    name.chars().map(|c| if c.is_control() { ' ' } else { c }).take(33).collect()
}

/// The TRF of `swiss`: its finished rounds (a round still going is left out), players by
/// pairing number. With `next_round_absent`, an `XXZ` line names the withdrawn and those who
/// asked for a bye, so a pairing program pairs the next round as Qi would.
#[must_use]
pub fn write(swiss: &Swiss, event: &Event, next_round_absent: bool) -> String {
    let numbers = swiss.pairing_numbers();
    let rounds: Vec<&Vec<RoundResult>> = if swiss.round_finished() {
        swiss.rounds.iter().collect()
    } else {
        swiss.rounds[..swiss.rounds.len() - 1].iter().collect()
    };
    let points = |i: usize| -> u32 { rounds.iter().map(|r| r[i].half_points()).sum() };
    let mut by_number: Vec<usize> = (0..swiss.players.len()).collect();
    by_number.sort_by_key(|&i| numbers[i]);
    // Rank: score, then pairing number.
    let mut by_rank = by_number.clone();
    by_rank.sort_by_key(|&i| (std::cmp::Reverse(points(i)), numbers[i]));
    let mut rank = vec![0; swiss.players.len()];
    for (place, &i) in by_rank.iter().enumerate() {
        rank[i] = place + 1;
    }

    let mut out = String::new();
    let _ = writeln!(out, "012 {}", clean_name(&event.name));
    if let Some(start) = &event.start {
        let _ = writeln!(out, "042 {start}");
    }
    let _ = writeln!(out, "062 {}", swiss.players.len());
    let _ = writeln!(out, "092 Swiss, FIDE Dutch system");
    if let Some(arbiter) = &event.arbiter {
        let _ = writeln!(out, "102 {}", clean_name(arbiter));
    }
    for &i in &by_number {
        let player = &swiss.players[i];
        let half = points(i);
        let rating =
            if player.rating > 0 { player.rating.min(9999).to_string() } else { String::new() };
        let mut line = format!(
            "001 {:>4}      {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            numbers[i],
            clean_name(&player.name),
            rating,
            "",
            "",
            "",
            format!("{}.{}", half / 2, if half % 2 == 1 { 5 } else { 0 }),
            rank[i],
        );
        for round in &rounds {
            line.push_str("  ");
            line.push_str(&round_text(round[i], &numbers));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "XXR {}", swiss.total_rounds);
    let _ = writeln!(out, "XXC white1");
    for &(a, b) in &swiss.forbidden {
        let _ = writeln!(out, "XXP {} {}", numbers[a], numbers[b]);
    }
    if next_round_absent {
        let mut absent: Vec<u32> = (0..swiss.players.len())
            .filter(|&i| swiss.players[i].withdrawn || swiss.players[i].wants_half_bye)
            .map(|i| numbers[i])
            .collect();
        absent.sort_unstable();
        if !absent.is_empty() {
            let list: Vec<String> = absent.iter().map(u32::to_string).collect();
            let _ = writeln!(out, "XXZ {}", list.join(" "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_where_fide_puts_them() {
        let mut swiss = Swiss::new(3);
        swiss.join("Ada", 1900);
        swiss.join("Bo", 2100);
        swiss.join("Cy", 1500);
        swiss.start_round().unwrap();
        // Bo (number 1) White against Ada (2); Cy (3) has the bye.
        swiss.record(1, Outcome::Draw, false).unwrap();
        let text = write(&swiss, &Event { name: "Test".into(), ..Event::default() }, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "012 Test");
        let bo = lines.iter().find(|l| l.starts_with("001    1")).unwrap();
        assert_eq!(&bo[14..16], "Bo");
        assert_eq!(&bo[48..52], "2100");
        assert_eq!(&bo[80..84], " 0.5");
        assert_eq!(&bo[91..99], "   2 w =");
        let cy = lines.iter().find(|l| l.starts_with("001    3")).unwrap();
        assert_eq!(&cy[80..84], " 1.0");
        assert_eq!(&cy[85..89], "   1");
        assert_eq!(&cy[91..99], "0000 - U");
        assert!(lines.contains(&"XXR 3"));
    }

    #[test]
    fn an_unfinished_round_is_left_out_and_names_cannot_break_lines() {
        let mut swiss = Swiss::new(2);
        swiss.join("A\nB", 1500);
        swiss.join("C", 1400);
        swiss.start_round().unwrap();
        let text = write(&swiss, &Event::default(), false);
        assert!(text.lines().all(|l| l.len() < 91 || !l.starts_with("001")));
        assert_eq!(text.lines().filter(|l| l.starts_with("001")).count(), 2);
    }
}
