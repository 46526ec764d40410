//! FIDE's Dutch system (Handbook C.04.3, as in force until 31 January 2026): the pairing of a
//! Swiss round.
//!
//! The round is paired bracket by bracket, from the top score down. Each bracket is decided
//! by maximum-weight matchings whose edge weights stack the quality criteria C.5–C.19 in bit
//! fields, the most important at the top, so that one matching satisfies them in their order;
//! the generation order of candidates (transpositions and exchanges, rules D.1–D.3) is then
//! imposed one choice at a time by nudging the lowest bits and matching again. This is the
//! method of bbpPairings (Bierema), which FIDE endorses, and of py4swiss, which this
//! implementation is checked against (`qi swiss check`; CI's `scripts/test_swiss.py`). A bracket whose downfloaters
//! would leave the rest of the round unpairable makes the rest collapse into one last bracket
//! (A.9). Colours follow E.1–E.5.

use super::wide::Wide;
use crate::Colour;
use std::collections::{BTreeMap, HashSet};

/// How a player floated in an earlier round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Float {
    /// Met someone with a higher score.
    Up,
    /// Met someone with a lower score, or did not play.
    Down,
    /// Met an equal score (or no such round).
    #[default]
    None,
}

/// A player to pair, with what the rules read of their past.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Pairing number: place in the initial order (1 for the highest rated).
    pub number: u32,
    /// Score so far, in half points.
    pub points: u32,
    /// Colours of the games actually played, oldest first.
    pub colours: Vec<Colour>,
    /// Pairing numbers of the opponents met over the board.
    pub opponents: HashSet<u32>,
    /// The float of the last round and of the round before it.
    pub floats: [Float; 2],
    /// Whether the player has had the pairing-allocated bye or a forfeit win (C.2: no second).
    pub had_bye: bool,
}

/// A round to pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Who plays this round (the withdrawn and the absent left out).
    pub entrants: Vec<Entrant>,
    /// The round being paired, from 1.
    pub round: u32,
    /// Whether it is the tournament's last round (topscorers, A.7).
    pub last_round: bool,
    /// Pairs that must not meet, by pairing number (besides those who already met).
    pub forbidden: Vec<(u32, u32)>,
    /// Whether the first player of the initial order has White in round 1 (TRF's `XXC white1`).
    pub first_white: bool,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pairings {
    /// The boards, by pairing number, White first, board 1 first.
    pub boards: Vec<(u32, u32)>,
    /// Who gets the pairing-allocated bye.
    pub bye: Option<u32>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// The absolute criteria (no rematch, no second bye, no two players who must both have the
    /// same colour) leave no complete pairing.
    Impossible,
    /// The bracket's criteria need more bits than the weights hold (a field of thousands).
    TooLarge,
    /// Two entrants share a pairing number.
    DuplicateNumber(u32),
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::Impossible => write!(
                f,
                "no pairing of this round keeps every rule (no rematch, no second bye, colours)"
            ),
            PairingError::TooLarge => write!(f, "too many players to pair in one round"),
            PairingError::DuplicateNumber(n) => write!(f, "pairing number {n} is given twice"),
        }
    }
}

impl std::error::Error for PairingError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

/// A player as the pairing reads them.
#[derive(Clone, Debug)]
struct Player {
    number: u32,
    points: i64,
    colours: Vec<Colour>,
    opponents: HashSet<u32>,
    floats: [Float; 2],
    had_bye: bool,
    /// The colour wanted next, and how strongly (A.6).
    wants: Option<Colour>,
    strength: Strength,
    /// Whites minus Blacks.
    difference: i64,
    /// The last two games with the same colour.
    double: bool,
    topscorer: bool,
}

impl Player {
    fn new(entrant: &Entrant, topscorer_above: Option<i64>) -> Player {
        let whites = entrant.colours.iter().filter(|&&c| c == Colour::White).count() as i64;
        let difference = 2 * whites - entrant.colours.len() as i64;
        let double = entrant.colours.len() > 1
            && entrant.colours[entrant.colours.len() - 1]
                == entrant.colours[entrant.colours.len() - 2];
        let wants = match difference.signum() {
            1 => Some(Colour::Black),
            -1 => Some(Colour::White),
            _ => entrant.colours.last().map(|c| c.opposite()),
        };
        let strength = if difference.abs() > 1 || double {
            Strength::Absolute
        } else if difference.abs() == 1 {
            Strength::Strong
        } else if wants.is_some() {
            Strength::Mild
        } else {
            Strength::None
        };
        let points = i64::from(entrant.points);
        Player {
            number: entrant.number,
            points,
            colours: entrant.colours.clone(),
            opponents: entrant.opponents.clone(),
            floats: entrant.floats,
            had_bye: entrant.had_bye,
            wants,
            strength,
            difference,
            double,
            topscorer: topscorer_above.is_some_and(|half| points > half),
        }
    }

    /// Ranks above `other` (A.2: score, then pairing number).
    fn above(&self, other: &Player) -> bool {
        (self.points, std::cmp::Reverse(self.number))
            > (other.points, std::cmp::Reverse(other.number))
    }

    /// Wants the same colour as `other`, both wanting one.
    fn clashes(&self, other: &Player) -> bool {
        self.wants.is_some() && self.wants == other.wants
    }
}

/// What may meet: C.1 (no rematch), C.3 (two non-topscorers who must both have the same colour
/// do not meet) and the forbidden pairs.
struct Rules {
    forbidden: HashSet<(u32, u32)>,
}

impl Rules {
    fn allowed(&self, a: &Player, b: &Player) -> bool {
        if self.forbidden.contains(&(a.number, b.number))
            || self.forbidden.contains(&(b.number, a.number))
        {
            return false;
        }
        if a.opponents.contains(&b.number) || b.opponents.contains(&a.number) {
            return false;
        }
        let both_absolute = a.strength == Strength::Absolute && b.strength == Strength::Absolute;
        // Topscorers may meet anyway (A.7).
        !both_absolute || a.wants != b.wants || a.topscorer || b.topscorer
    }
}

/// Whether everyone still free can be paired (one bye allowed to a player who has not had one),
/// with the pairs already fixed kept: C.4's test.
struct Completion {
    /// Players by position in the round's order; a dummy bye vertex at the end when odd.
    edges: Vec<bool>,
    n: usize,
}

impl Completion {
    fn new(players: &[Player], rules: &Rules) -> Completion {
        let count = players.len();
        let n = count + count % 2;
        let mut edges = vec![false; n * n];
        for i in 0..count {
            for j in i + 1..count {
                let ok = rules.allowed(&players[i], &players[j]);
                edges[i * n + j] = ok;
                edges[j * n + i] = ok;
            }
            if count % 2 == 1 {
                edges[i * n + count] = !players[i].had_bye;
                edges[count * n + i] = !players[i].had_bye;
            }
        }
        Completion { edges, n }
    }

    fn fix(&mut self, i: usize, j: usize) {
        for k in 0..self.n {
            for (a, b) in [(i, k), (k, i), (j, k), (k, j)] {
                self.edges[a * self.n + b] = false;
            }
        }
        self.edges[i * self.n + j] = true;
        self.edges[j * self.n + i] = true;
    }

    fn complete(&self) -> bool {
        let weights: Vec<i64> = self.edges.iter().map(|&e| i64::from(e)).collect();
        let mates = integer_blossom::max_weight_matching(&weights, self.n);
        mates.iter().all(Option::is_some)
    }
}

/// Pairs a round.
///
/// # Errors
/// [`PairingError::Impossible`] when the absolute criteria leave no pairing;
/// [`PairingError::TooLarge`] past the weights' width; a repeated pairing number.
pub fn pair(request: &Request) -> Result<Pairings, PairingError> {
    let mut seen = HashSet::new();
    for entrant in &request.entrants {
        if !seen.insert(entrant.number) {
            return Err(PairingError::DuplicateNumber(entrant.number));
        }
    }
    // A.7: topscorers have more than half the points possible, when the last round is paired.
    let played = i64::from(request.round.saturating_sub(1));
    let topscorer_above = request.last_round.then_some(played);
    let mut players: Vec<Player> =
        request.entrants.iter().map(|e| Player::new(e, topscorer_above)).collect();
    players.sort_by(|a, b| {
        (b.points, std::cmp::Reverse(b.number)).cmp(&(a.points, std::cmp::Reverse(a.number)))
    });
    let rules = Rules { forbidden: request.forbidden.iter().copied().collect() };
    let mut completion = Completion::new(&players, &rules);
    if !completion.complete() {
        return Err(PairingError::Impossible);
    }

    // Score groups, by position in `players`.
    let mut brackets: Vec<Vec<usize>> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        match brackets.last_mut() {
            Some(group) if players[group[0]].points == p.points => group.push(i),
            _ => brackets.push(vec![i]),
        }
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut bye = None;
    let mut moved_down: Vec<usize> = Vec::new();
    let mut collapsed = false;
    let mut index = 0;
    while index < brackets.len() {
        let residents = brackets[index].clone();
        let lower = brackets.get(index + 1).cloned().unwrap_or_default();
        let context = BracketContext {
            players: &players,
            rules: &rules,
            round: request.round,
            penultimate: collapsed,
            last: lower.is_empty(),
        };
        let mut trial = completion.clone_state();
        // The narrower weights when the bracket's criteria fit in them.
        let paired = match pair_bracket::<4>(&context, &moved_down, &residents, &lower, &mut trial)
        {
            Err(PairingError::TooLarge) => {
                pair_bracket::<8>(&context, &moved_down, &residents, &lower, &mut trial)
            }
            other => other,
        };
        match paired? {
            None => {
                // A.9: the rest collapses into one last bracket.
                let rest: Vec<usize> = brackets.drain(index + 1..).flatten().collect();
                brackets.push(rest);
                collapsed = true;
            }
            Some(outcome) => {
                completion = trial;
                let paired: HashSet<usize> =
                    outcome.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
                pairs.extend(outcome.pairs);
                if outcome.bye.is_some() {
                    bye = outcome.bye;
                }
                moved_down = moved_down
                    .iter()
                    .chain(residents.iter())
                    .copied()
                    .filter(|i| !paired.contains(i) && outcome.bye != Some(*i))
                    .collect();
                index += 1;
            }
        }
    }

    let first_white = request.first_white;
    let mut boards: Vec<(usize, usize)> =
        pairs.iter().map(|&(a, b)| colours(&players[a], &players[b], a, b, first_white)).collect();
    // D.9: boards by the higher player's score, then the pair's total, then the higher's number.
    boards.sort_by_key(|&(w, b)| {
        let (hi, lo) = if players[w].above(&players[b]) { (w, b) } else { (b, w) };
        std::cmp::Reverse((
            players[hi].points,
            players[lo].points,
            std::cmp::Reverse(players[hi].number),
        ))
    });
    Ok(Pairings {
        boards: boards.iter().map(|&(w, b)| (players[w].number, players[b].number)).collect(),
        bye: bye.map(|i| players[i].number),
    })
}

impl Completion {
    fn clone_state(&self) -> Completion {
        Completion { edges: self.edges.clone(), n: self.n }
    }
}

/// E.1–E.5: who of a pair has White, as (white, black) positions. `a` ranks above `b`.
fn colours(pa: &Player, pb: &Player, a: usize, b: usize, first_white: bool) -> (usize, usize) {
    let (hi, lo, hi_pos, lo_pos) = if pa.above(pb) { (pa, pb, a, b) } else { (pb, pa, b, a) };
    let hi_white = || -> bool {
        // E.1: both preferences, when they differ.
        if let (Some(x), Some(y)) = (hi.wants, lo.wants)
            && x != y
        {
            return x == Colour::White;
        }
        // E.2: the stronger preference; between two absolutes, the wider colour difference.
        if hi.strength != lo.strength {
            return if hi.strength > lo.strength {
                hi.wants == Some(Colour::White)
            } else {
                lo.wants != Some(Colour::White)
            };
        }
        if hi.strength == Strength::Absolute && hi.difference.abs() != lo.difference.abs() {
            return if hi.difference.abs() > lo.difference.abs() {
                hi.wants == Some(Colour::White)
            } else {
                lo.wants != Some(Colour::White)
            };
        }
        // E.3: alternate from the last round (of games played, counted back) where they differed.
        for (x, y) in hi.colours.iter().rev().zip(lo.colours.iter().rev()) {
            if x != y {
                return *x == Colour::Black;
            }
        }
        // E.4: the higher-ranked player's preference.
        if let Some(c) = hi.wants {
            return c == Colour::White;
        }
        // E.5: an odd pairing number takes the first round's colour of number 1.
        (hi.number % 2 == 1) == first_white
    }();
    if hi_white { (hi_pos, lo_pos) } else { (lo_pos, hi_pos) }
}

/// Where a player stands in the bracket being paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Moved down from a higher bracket.
    MovedDown,
    /// Of this score group.
    Resident,
    /// Of the next score group (the matching looks ahead, C.7).
    Lower,
}

struct BracketContext<'a> {
    players: &'a [Player],
    rules: &'a Rules,
    round: u32,
    /// The bracket before the collapsed last one (A.9).
    penultimate: bool,
    /// The last bracket.
    last: bool,
}

struct BracketOutcome {
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

/// The bracket's score differences: each difference's count needs a field wide enough, the
/// smaller differences in the lower bits (A.8).
struct ScoreBits {
    offsets: BTreeMap<i64, u32>,
    total: u32,
}

impl ScoreBits {
    fn new(players: &[Player], moved_down: &[usize], residents: &[usize]) -> ScoreBits {
        let lowest = players[*residents.last().expect("a bracket has residents")].points;
        let point = 2;
        let mut differences: Vec<i64> = moved_down
            .iter()
            .chain(residents)
            .map(|&i| players[i].points - lowest + point)
            .collect();
        for &m in moved_down {
            let distinct: std::collections::BTreeSet<i64> =
                residents.iter().map(|&r| players[m].points - players[r].points).collect();
            differences.extend(distinct);
        }
        for (k, &r) in residents.iter().enumerate() {
            let distinct: std::collections::BTreeSet<i64> =
                residents[k + 1..].iter().map(|&s| players[r].points - players[s].points).collect();
            differences.extend(distinct);
        }
        let mut counts: BTreeMap<i64, u32> = BTreeMap::new();
        for d in differences {
            *counts.entry(d).or_default() += 1;
        }
        let mut offsets = BTreeMap::new();
        let mut total = 0;
        for (d, count) in counts {
            offsets.insert(d, total);
            total += bit_length(count as usize);
        }
        ScoreBits { offsets, total }
    }

    fn one_at<const N: usize>(&self, difference: i64) -> Wide<N> {
        Wide::<N>::from_i64(1).shl(self.offsets.get(&difference).copied().unwrap_or(0))
    }
}

fn bit_length(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// The matching of one bracket: the players (moved down, residents, the next group), their
/// edge weights, and the current maximum-weight matching.
struct Matcher<const N: usize> {
    list: Vec<usize>,
    roles: Vec<Role>,
    weights: Vec<Wide<N>>,
    n: usize,
    mates: Vec<usize>,
    strongest: Wide<N>,
}

impl<const N: usize> Matcher<N> {
    fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.weights[i * self.n + j]
    }

    fn set(&mut self, i: usize, j: usize, w: Wide<N>) {
        self.weights[i * self.n + j] = w;
        self.weights[j * self.n + i] = w;
    }

    fn rematch(&mut self) {
        let mates = integer_blossom::max_weight_matching(&self.weights, self.n);
        self.mates = mates.iter().enumerate().map(|(i, m)| m.unwrap_or(i)).collect();
    }

    /// Adds `value` to the weight of an existing edge.
    fn add(&mut self, i: usize, j: usize, value: i64) {
        let w = self.weight(i, j);
        if w != Wide::<N>::ZERO {
            self.set(i, j, w + Wide::<N>::from_i64(value));
        }
    }

    fn add_all(&mut self, i: usize, others: &[usize], mut value: i64, step: i64) {
        for &j in others {
            self.add(i, j, value);
            value += step;
        }
    }

    fn remove_all(&mut self, i: usize, others: &[usize]) {
        for &j in others {
            self.set(i, j, Wide::<N>::ZERO);
        }
    }

    /// Fixes the pair `i`–`j`: every other edge of theirs goes.
    fn fix(&mut self, i: usize, j: usize) {
        for k in 0..self.n {
            self.set(i, k, Wide::<N>::ZERO);
            self.set(j, k, Wide::<N>::ZERO);
        }
        self.set(i, j, self.strongest);
    }

    fn mate_role(&self, i: usize) -> Role {
        self.roles[self.mates[i]]
    }

    /// In S1: matched to a resident ranked below.
    fn in_s1(&self, i: usize) -> bool {
        i < self.mates[i] && self.mate_role(i) == Role::Resident
    }

    /// In S2: matched to someone ranked above, unmatched, or floating down.
    fn in_s2(&self, i: usize) -> bool {
        i >= self.mates[i] || self.mate_role(i) == Role::Lower
    }
}

/// Pairs one bracket; `None` when its downfloaters would leave the round incomplete (C.4).
fn pair_bracket<const N: usize>(
    context: &BracketContext<'_>,
    moved_down: &[usize],
    residents: &[usize],
    lower: &[usize],
    completion: &mut Completion,
) -> Result<Option<BracketOutcome>, PairingError> {
    let players = context.players;
    let list: Vec<usize> = moved_down.iter().chain(residents).chain(lower).copied().collect();
    let roles: Vec<Role> = moved_down
        .iter()
        .map(|_| Role::MovedDown)
        .chain(residents.iter().map(|_| Role::Resident))
        .chain(lower.iter().map(|_| Role::Lower))
        .collect();
    let n = list.len();
    let bracket_bits = bit_length(residents.len());
    let lower_bits = bit_length(lower.len());
    let scores = ScoreBits::new(players, moved_down, residents);
    let lowest = players[*residents.last().expect("a bracket has residents")].points;
    let one_round = context.round > 1;
    let two_rounds = context.round > 2;
    let end = context.penultimate || context.last;

    // The fields, most important first: (width, value for the pair i < j).
    let criteria = Criteria { players, list: &list, roles: &roles, scores: &scores, lowest };
    let widths: [u32; 15] = [
        bracket_bits,                                    // C.5
        scores.total,                                    // C.6
        if end { 0 } else { lower_bits + scores.total }, // C.7
        bracket_bits,                                    // C.8
        bracket_bits,                                    // C.9
        bracket_bits,                                    // C.10
        bracket_bits,                                    // C.11
        if one_round { bracket_bits } else { 0 },        // C.12
        if two_rounds { bracket_bits } else { 0 },       // C.13
        if one_round { bracket_bits } else { 0 },        // C.14
        if two_rounds { bracket_bits } else { 0 },       // C.15
        if one_round { scores.total } else { 0 },        // C.16
        if one_round { scores.total } else { 0 },        // C.17
        if two_rounds { scores.total } else { 0 },       // C.18
        if two_rounds { scores.total } else { 0 },       // C.19
    ];
    let low_bits = 3 * bracket_bits + 1;
    let total_bits = 3 + widths.iter().sum::<u32>() + low_bits + 2;
    if total_bits > Wide::<N>::USABLE_BITS {
        return Err(PairingError::TooLarge);
    }
    let strongest = Wide::<N>::from_i64(1).shl(total_bits - 1) - Wide::<N>::from_i64(1);
    let mut weights = vec![Wide::<N>::ZERO; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (&players[list[i]], &players[list[j]]);
            if !context.rules.allowed(a, b) {
                continue;
            }
            let mut w = if end {
                Wide::<N>::from_i64(1 + i64::from(a.had_bye) + i64::from(b.had_bye))
            } else {
                Wide::<N>::ZERO
            };
            for (k, &width) in widths.iter().enumerate() {
                w = w.shl(width);
                if width > 0 {
                    w += criteria.value(k, i, j, end);
                }
            }
            weights[i * n + j] = w.shl(low_bits);
            weights[j * n + i] = weights[i * n + j];
        }
    }
    let mut m = Matcher { list, roles, weights, n, mates: Vec::new(), strongest };
    m.rematch();

    let mdps: Vec<usize> = (0..moved_down.len()).collect();
    let res: Vec<usize> = (moved_down.len()..moved_down.len() + residents.len()).collect();
    let size = n as i64;

    // D.3: which moved-down players are paired (S1), highest first.
    let mut s1_heterogeneous = Vec::new();
    for &mdp in &mdps {
        if m.mate_role(mdp) != Role::Resident {
            m.add_all(mdp, &res, 1, 0);
            m.rematch();
        }
        if m.mate_role(mdp) == Role::Resident {
            s1_heterogeneous.push(mdp);
            m.add_all(mdp, &res, size, 0);
        }
    }
    // D.1: each one's opponent, the lowest-numbered resident possible.
    let mut s2_heterogeneous = Vec::new();
    for &mdp in &s1_heterogeneous {
        let reversed: Vec<usize> = res.iter().rev().copied().collect();
        m.add_all(mdp, &reversed, 0, 1);
        m.rematch();
        let mate = m.mates[mdp];
        s2_heterogeneous.push(mate);
        m.fix(mdp, mate);
        completion.fix(m.list[mdp], m.list[mate]);
    }
    // D.2: the remainder, homogeneous: how many exchanges between S1 and S2.
    let remainder: Vec<usize> =
        res.iter().copied().filter(|r| !s2_heterogeneous.contains(r)).collect();
    let pairs = remainder.iter().filter(|&&r| m.mate_role(r) == Role::Resident).count() / 2;
    let mut s1: Vec<usize> = remainder[..pairs].to_vec();
    let mut s2: Vec<usize> = remainder[pairs..].to_vec();
    for (k, &r) in remainder.iter().enumerate() {
        let value = ((i64::from(k < pairs) << (2 * bracket_bits)) - k as i64) << 1;
        let below = remainder[k + 1..].to_vec();
        m.add_all(r, &below, value, 0);
    }
    m.rematch();
    let exchanges = s1.iter().filter(|&&r| m.in_s2(r)).count();
    // D.2.c: the highest possible players of S1 move to S2.
    let mut left = exchanges;
    for k in (0..s1.len()).rev() {
        if left == 0 {
            break;
        }
        let r = s1[k];
        let below: Vec<usize> = s1[k + 1..].iter().chain(&s2).copied().collect();
        let was = m.in_s2(r);
        if !was {
            m.add_all(r, &below, -1, 0);
            m.rematch();
        }
        if m.in_s2(r) {
            left -= 1;
            m.remove_all(r, &below);
        }
        if !was {
            m.add_all(r, &below, 1, 0);
        }
    }
    // D.2.d: the lowest possible players of S2 move to S1.
    let mut left = exchanges;
    for k in 0..s2.len() {
        if left == 0 {
            break;
        }
        let r = s2[k];
        let above: Vec<usize> = s1.iter().chain(&s2[..k]).copied().collect();
        let was = m.in_s1(r);
        if !was {
            m.add_all(r, &above, -1, 0);
            m.rematch();
        }
        if !m.in_s2(r) {
            left -= 1;
            let mut away = above.clone();
            away.extend(
                m.roles
                    .iter()
                    .enumerate()
                    .filter(|(_, role)| **role == Role::Lower)
                    .map(|(i, _)| i),
            );
            m.remove_all(r, &away);
        }
        if !was {
            m.add_all(r, &above, 1, 0);
        }
    }
    let whole: Vec<usize> = s1.iter().chain(&s2).copied().collect();
    s1 = whole.iter().copied().filter(|&r| m.in_s1(r)).collect();
    s2 = whole.iter().copied().filter(|&r| m.in_s2(r)).collect();
    for k in 0..s1.len() {
        let rest = s1[k + 1..].to_vec();
        m.remove_all(s1[k], &rest);
    }
    for k in 0..s2.len() {
        let rest = s2[k + 1..].to_vec();
        m.remove_all(s2[k], &rest);
    }
    // D.1 in the remainder: each of S1 meets the lowest-numbered possible of S2. One
    // matching per player of S1 finds it; first, the plain greedy choice is tried, and kept
    // when it loses nothing against the best matching: it is then the same answer (see
    // `greedy_transposition`), for two matchings instead of one per pair.
    if let Some(greedy) = greedy_transposition(&mut m, &s1, &s2) {
        for (r, mate) in greedy {
            completion.fix(m.list[r], m.list[mate]);
        }
    } else {
        sequential_transposition(&mut m, &s1, &s2, completion);
    }
    // C.4: the downfloaters must let the rest of the round be paired.
    if !end && !completion.complete() {
        return Ok(None);
    }
    let mut outcome = BracketOutcome { pairs: Vec::new(), bye: None };
    for i in 0..n {
        let j = m.mates[i];
        if m.roles[i] == Role::Lower || m.roles[j] == Role::Lower {
            continue;
        }
        if i < j {
            outcome.pairs.push((m.list[i], m.list[j]));
        } else if i == j && context.last {
            // One bye at most: the round's check allowed one, so two unpaired is a failure.
            if outcome.bye.replace(m.list[i]).is_some() {
                return Err(PairingError::Impossible);
            }
        }
    }
    Ok(Some(outcome))
}

/// The total weight of the current matching.
fn matching_weight<const N: usize>(m: &Matcher<N>) -> Wide<N> {
    let mut total = Wide::<N>::ZERO;
    for i in 0..m.n {
        let j = m.mates[i];
        if i < j {
            total += m.weight(i, j);
        }
    }
    total
}

/// D.1 by one matching per player of S1 (bbpPairings' way): each in turn takes the
/// lowest-numbered player of S2 that an optimal matching allows, the earlier choices fixed,
/// nudged there by increments in the lowest bits that favour low numbers.
fn sequential_transposition<const N: usize>(
    m: &mut Matcher<N>,
    s1: &[usize],
    s2: &[usize],
    completion: &mut Completion,
) {
    let reversed: Vec<usize> = s2.iter().rev().copied().collect();
    for &r in s1 {
        m.add_all(r, &reversed, 0, 1);
        m.rematch();
        let mate = m.mates[r];
        m.fix(r, mate);
        completion.fix(m.list[r], m.list[mate]);
    }
}

/// D.1 the quick way, when it applies: each player of S1 in order takes the lowest-numbered
/// player of S2 still free whom they may meet. If that whole choice, with the best matching of
/// everyone else, weighs as much as the best matching, it is what [`sequential_transposition`]
/// would find: at each step the partner it picks carries the largest increment among that
/// player's edges, and a matching of full weight contains it, so the nudged optimum must.
/// Returns the pairs (and leaves them fixed in `m`), or `None` with `m` untouched.
fn greedy_transposition<const N: usize>(
    m: &mut Matcher<N>,
    s1: &[usize],
    s2: &[usize],
) -> Option<Vec<(usize, usize)>> {
    let mut taken = vec![false; m.n];
    let mut greedy = Vec::with_capacity(s1.len());
    for &r in s1 {
        let mate = s2.iter().copied().find(|&j| !taken[j] && m.weight(r, j) != Wide::<N>::ZERO)?;
        taken[mate] = true;
        greedy.push((r, mate));
    }
    m.rematch();
    let best = matching_weight(m);
    let saved = (m.weights.clone(), m.mates.clone());
    let chosen: Wide<N> = greedy.iter().fold(Wide::<N>::ZERO, |sum, &(r, j)| sum + m.weight(r, j));
    for &(r, j) in &greedy {
        m.fix(r, j);
    }
    m.rematch();
    let mut rest = Wide::<N>::ZERO;
    for i in 0..m.n {
        let j = m.mates[i];
        if i < j && !greedy.iter().any(|&(r, g)| (r, g) == (i, j) || (g, r) == (i, j)) {
            rest += m.weight(i, j);
        }
    }
    if chosen + rest == best && greedy.iter().all(|&(r, j)| m.mates[r] == j) {
        Some(greedy)
    } else {
        (m.weights, m.mates) = saved;
        None
    }
}

/// The quality criteria's values for a pair, `i` ranked above `j` in the bracket's list.
struct Criteria<'a> {
    players: &'a [Player],
    list: &'a [usize],
    roles: &'a [Role],
    scores: &'a ScoreBits,
    lowest: i64,
}

impl Criteria<'_> {
    fn value<const N: usize>(&self, criterion: usize, i: usize, j: usize, end: bool) -> Wide<N> {
        let (a, b) = (&self.players[self.list[i]], &self.players[self.list[j]]);
        let b_lower = self.roles[j] == Role::Lower;
        let a_lower = self.roles[i] == Role::Lower;
        let one = |yes: bool| Wide::<N>::from_i64(i64::from(yes));
        let point = 2;
        let downfloat_a = a.points - self.lowest + point;
        let downfloat_b = b.points - self.lowest + point;
        let gap = a.points - b.points;
        let top = a.topscorer || b.topscorer;
        let float_score = |back: usize| -> Wide<N> {
            // C.16/C.18: the downfloats repeated, weighed by their score differences.
            let (da, db) = (a.floats[back] == Float::Down, b.floats[back] == Float::Down);
            let mut w = Wide::<N>::ZERO;
            if da {
                w += self.scores.one_at(downfloat_a);
            }
            if db {
                w += self.scores.one_at(downfloat_b);
            }
            if da && a.points > b.points {
                w -= self.scores.one_at(gap);
            }
            w
        };
        let upfloat_score = |back: usize| -> Wide<N> {
            // C.17/C.19: the upfloats repeated.
            if b.floats[back] == Float::Up && a.points > b.points {
                Wide::<N>::ZERO - self.scores.one_at(downfloat_a)
            } else {
                Wide::<N>::ZERO
            }
        };
        if b_lower && criterion != 2 {
            return Wide::<N>::ZERO;
        }
        match criterion {
            // C.5: a pair within the bracket.
            0 => one(true),
            // C.6: the score differences of the downfloaters.
            1 => {
                self.scores.one_at(downfloat_a) + self.scores.one_at(downfloat_b)
                    - self.scores.one_at(gap)
            }
            // C.7: the next bracket's pairs and differences.
            2 => {
                if end {
                    return Wide::<N>::ZERO;
                }
                let mut w = one(b_lower).shl(self.scores.total);
                if !a_lower {
                    w += self.scores.one_at(downfloat_a);
                }
                if !b_lower {
                    w += self.scores.one_at(downfloat_b);
                }
                w
            }
            // C.8: topscorers' colour differences beyond ±2.
            3 => one(!(top
                && a.difference.abs() > 1
                && b.difference.abs() > 1
                && a.wants == b.wants)),
            // C.9: topscorers' third same colour in a row.
            4 => one(!(top && a.double && b.double && a.wants == b.wants)),
            // C.10: colour preferences.
            5 => one(!a.clashes(b)),
            // C.11: strong colour preferences.
            6 => one(!(a.strength >= Strength::Strong
                && b.strength >= Strength::Strong
                && a.clashes(b))),
            // C.12 and C.14: the same downfloat as one and two rounds before.
            7 | 9 => {
                let back = usize::from(criterion == 9);
                let kept_a = a.floats[back] == Float::Down && a.points <= b.points;
                let kept_b = b.floats[back] == Float::Down;
                Wide::<N>::from_i64(i64::from(kept_a) + i64::from(kept_b))
            }
            // C.13 and C.15: the same upfloat.
            8 | 10 => {
                let back = usize::from(criterion == 10);
                one(!(b.floats[back] == Float::Up && a.points > b.points))
            }
            11 => float_score(0),
            12 => upfloat_score(0),
            13 => float_score(1),
            _ => upfloat_score(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(n: u32) -> Vec<Entrant> {
        (1..=n)
            .map(|number| Entrant {
                number,
                points: 0,
                colours: Vec::new(),
                opponents: HashSet::new(),
                floats: [Float::None; 2],
                had_bye: false,
            })
            .collect()
    }

    fn request(entrants: Vec<Entrant>, round: u32) -> Request {
        Request { entrants, round, last_round: false, forbidden: Vec::new(), first_white: true }
    }

    #[test]
    fn round_one_pairs_the_top_half_with_the_bottom_half_alternating_colours() {
        let p = pair(&request(fresh(8), 1)).unwrap();
        assert_eq!(p.boards, [(1, 5), (6, 2), (3, 7), (8, 4)]);
        assert_eq!(p.bye, None);
    }

    #[test]
    fn an_odd_field_gives_the_last_player_the_bye() {
        let p = pair(&request(fresh(7), 1)).unwrap();
        assert_eq!(p.boards, [(1, 4), (5, 2), (3, 6)]);
        assert_eq!(p.bye, Some(7));
    }

    #[test]
    fn nobody_gets_a_second_bye_and_nobody_meets_twice() {
        let mut e = fresh(3);
        e[2].had_bye = true;
        e[0].opponents.insert(2);
        e[1].opponents.insert(1);
        let p = pair(&request(e, 2)).unwrap();
        assert_eq!(p.bye, Some(2));
        assert_eq!(p.boards.len(), 1);
    }

    #[test]
    fn forbidden_pairs_do_not_meet() {
        let mut r = request(fresh(4), 1);
        r.forbidden.push((1, 3));
        let p = pair(&r).unwrap();
        assert!(p.boards.iter().all(|&(w, b)| (w.min(b), w.max(b)) != (1, 3)));
    }

    #[test]
    fn an_unpairable_round_is_an_error() {
        let mut e = fresh(2);
        e[0].opponents.insert(2);
        e[1].opponents.insert(1);
        assert_eq!(pair(&request(e, 2)), Err(PairingError::Impossible));
        let mut e = fresh(2);
        e[1].number = 1;
        assert_eq!(pair(&request(e, 1)), Err(PairingError::DuplicateNumber(1)));
    }
}
