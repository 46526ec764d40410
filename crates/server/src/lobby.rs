//! The lobby: every listed game's row (an open challenge, or a game being played) and the
//! connections that follow it. Games set their rows as they change ([`Lobby::set`]); a task
//! ([`crate::hub::Hub::lobby_every`]) sends each follower, every [`LOBBY_TICK`], only what changed
//! among the rows it is shown: the newest [`LOBBY_MAX_CHALLENGES`] challenges and the most
//! watched [`LOBBY_MAX_GAMES`] games of the kind it chose. Rows of games being played change
//! with every move, so they are sent at most once every [`GAMES_EVERY_TICKS`] ticks, a game it
//! has as its new position alone: an idle follower gets what changes among a few dozen rows
//! (about 1.6 KB a second with a busy lobby, in the load benchmark), not the whole world.
//!
//! With several nodes ([`crate::cluster`]) each node shares the rows any follower could be
//! shown of its own games (its [`Lobby::candidates`]: the top rows of each filter, which hold the
//! top rows of the whole lobby) through Redis, and shows the other nodes' beside its own
//! ([`Lobby::set_remote`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use qi_protocol::{
    ChallengeRow, ErrorCode, GameSpec, LOBBY_KEEP_CHALLENGES, LOBBY_MAX_CHALLENGES,
    LOBBY_MAX_GAMES, LivePosition, LiveRow, LobbyUpdate, ServerMessage, Variant,
};

use crate::outbox::Outbox;
use crate::session::{ConnId, Denied, Listing};

/// How often followers hear what changed.
pub const LOBBY_TICK: Duration = Duration::from_millis(100);
/// Rows of games being played go out every this many ticks (every two seconds): a game
/// changes with every move, and the previews need no more to look alive.
pub const GAMES_EVERY_TICKS: u64 = 20;
/// How many times a connection may follow the lobby anew (a new filter) within
/// [`FOLLOW_WINDOW`]; each brings the whole list, so more are refused.
pub const FOLLOWS_PER_WINDOW: usize = 10;
/// The window of [`FOLLOWS_PER_WINDOW`].
pub const FOLLOW_WINDOW: Duration = Duration::from_secs(10);

/// One follower.
#[derive(Debug)]
struct Follower {
    outbox: Outbox,
    variant: Option<Variant>,
    /// The quick-pairing queue it counts (its key).
    seek: Option<String>,
    /// What it was last sent.
    challenges: HashMap<String, ChallengeRow>,
    games: HashMap<String, LiveRow>,
    waiting: Option<u32>,
    /// Sends everything anew next tick.
    reset: bool,
    /// Sends the quick-pairing count anew next tick.
    recount: bool,
    /// When it followed anew lately (kept after it leaves, until its socket closes, so that
    /// leaving and following again is limited too).
    follows: VecDeque<Instant>,
    /// Whether it follows now (else it left the lobby and is kept for `follows`).
    following: bool,
}

/// The rows of one node's games that its followers could be shown.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Candidates {
    /// Open challenges.
    pub challenges: Vec<ChallengeRow>,
    /// Games being played.
    pub games: Vec<LiveRow>,
}

/// The rows. Kept apart from the followers, so that a game setting its row never waits for the
/// followers' updates being made.
#[derive(Debug, Default)]
struct LobbyState {
    challenges: HashMap<String, ChallengeRow>,
    live: HashMap<String, LiveRow>,
    /// Other nodes' candidates, by node.
    remote: HashMap<u32, Candidates>,
    /// A challenge changed since the last tick.
    challenges_changed: bool,
    /// This node's challenges changed since they were last shared.
    share_challenges: bool,
}

/// The lobby of one node.
#[derive(Debug, Default)]
pub struct Lobby {
    state: Mutex<LobbyState>,
    followers: Mutex<HashMap<ConnId, Follower>>,
}

/// The rows one kind of follower is shown.
struct Shown {
    challenges: Vec<ChallengeRow>,
    games: Vec<LiveRow>,
}

/// Whether `new` differs from `old` by the moves alone (position, plies, last move).
fn same_but_moves(old: &LiveRow, new: &LiveRow) -> bool {
    old.spec == new.spec
        && old.names == new.names
        && old.ratings == new.ratings
        && old.watchers == new.watchers
}

/// The higher of a game's players' ratings (0 for none): among games watched alike, the
/// highest rated come first.
fn top_rating(row: &LiveRow) -> u32 {
    row.ratings.iter().flatten().map(|r| r.rating).max().unwrap_or(0)
}

fn shows(variant: Option<Variant>, spec: &GameSpec) -> bool {
    variant.is_none_or(|variant| spec.variant() == variant)
}

/// Every row `variant` is shown: the newest challenges, the most watched games, the highest
/// rated first among equals (this node's,
/// and when `remote`, the other nodes' too).
fn shown(state: &LobbyState, variant: Option<Variant>, remote: bool) -> Shown {
    let others = state.remote.values().filter(|_| remote);
    let mut challenges: Vec<&ChallengeRow> = state
        .challenges
        .values()
        .chain(others.clone().flat_map(|c| c.challenges.iter()))
        .filter(|row| shows(variant, &row.spec))
        .collect();
    challenges.sort_by(|a, b| b.created_unix_ms.cmp(&a.created_unix_ms).then(a.game.cmp(&b.game)));
    let mut games: Vec<&LiveRow> = state
        .live
        .values()
        .chain(others.flat_map(|c| c.games.iter()))
        .filter(|row| shows(variant, &row.spec))
        .collect();
    games.sort_by(|a, b| {
        (b.watchers.cmp(&a.watchers))
            .then(top_rating(b).cmp(&top_rating(a)))
            .then(a.game.cmp(&b.game))
    });
    Shown {
        challenges: challenges.into_iter().take(LOBBY_KEEP_CHALLENGES).cloned().collect(),
        games: games.into_iter().take(LOBBY_MAX_GAMES).cloned().collect(),
    }
}

/// What a follower that was sent `had` must be sent to show `now`: rows new or changed, and
/// the ids gone.
fn diff<T: Clone + PartialEq>(
    had: &mut HashMap<String, T>,
    now: &[T],
    id: impl Fn(&T) -> &str,
    changed: &mut Vec<T>,
    gone: &mut Vec<String>,
) {
    let keep: HashSet<&str> = now.iter().map(&id).collect();
    let mut left: Vec<String> =
        had.keys().filter(|key| !keep.contains(key.as_str())).cloned().collect();
    left.sort();
    for key in left {
        had.remove(&key);
        gone.push(key);
    }
    for row in now {
        if had.get(id(row)) != Some(row) {
            had.insert(id(row).to_owned(), row.clone());
            changed.push(row.clone());
        }
    }
}

impl Lobby {
    fn lock(&self) -> MutexGuard<'_, LobbyState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn followers_lock(&self) -> MutexGuard<'_, HashMap<ConnId, Follower>> {
        self.followers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sets game `id`'s row (`None`: not listed any more).
    pub fn set(&self, id: &str, listing: Option<Listing>) {
        let mut state = self.lock();
        if state.challenges.remove(id).is_some() {
            state.challenges_changed = true;
            state.share_challenges = true;
        }
        state.live.remove(id);
        match listing {
            Some(Listing::Challenge(row)) => {
                state.challenges.insert(id.to_owned(), row);
                state.challenges_changed = true;
                state.share_challenges = true;
            }
            Some(Listing::Live(row)) => {
                state.live.insert(id.to_owned(), row);
            }
            None => {}
        }
    }

    /// `conn` follows the lobby, showing `variant` (or all) and counting the quick-pairing
    /// queue `seek` (its key), or changes what it follows; it gets everything anew at the next
    /// tick.
    ///
    /// # Errors
    /// [`Denied`] when it followed anew more than [`FOLLOWS_PER_WINDOW`] times within
    /// [`FOLLOW_WINDOW`].
    pub fn follow(
        &self,
        conn: ConnId,
        outbox: Outbox,
        variant: Option<Variant>,
        seek: Option<String>,
    ) -> Result<(), Denied> {
        let now = Instant::now();
        let mut followers = self.followers_lock();
        let follower = followers.entry(conn).or_insert_with(|| Follower {
            outbox: outbox.clone(),
            variant: None,
            seek: None,
            challenges: HashMap::new(),
            games: HashMap::new(),
            waiting: None,
            reset: true,
            recount: false,
            follows: VecDeque::new(),
            following: false,
        });
        // The same filter again with another game counted (the lobby's form changed): the
        // rows stand, only the count is sent anew; that costs nothing and counts nothing.
        if follower.following && follower.variant == variant {
            follower.outbox = outbox;
            if follower.seek != seek {
                follower.seek = seek;
                follower.waiting = None;
                follower.recount = true;
            }
            return Ok(());
        }
        while follower.follows.front().is_some_and(|&t| now.duration_since(t) >= FOLLOW_WINDOW) {
            follower.follows.pop_front();
        }
        if follower.follows.len() >= FOLLOWS_PER_WINDOW {
            return Err(Denied::new(
                ErrorCode::RateLimited,
                format!(
                    "the lobby may be followed anew at most {FOLLOWS_PER_WINDOW} times in {} s",
                    FOLLOW_WINDOW.as_secs()
                ),
            ));
        }
        follower.follows.push_back(now);
        follower.outbox = outbox;
        follower.variant = variant;
        follower.seek = seek;
        follower.waiting = None;
        follower.reset = true;
        follower.following = true;
        Ok(())
    }

    /// The rows of this node's games any follower could be shown (the top rows of every
    /// filter): always when `force`, else only if its challenges changed since they were last
    /// asked for.
    #[must_use]
    pub fn candidates(&self, force: bool) -> Option<Candidates> {
        let mut state = self.lock();
        let changed = std::mem::take(&mut state.share_challenges);
        if !changed && !force {
            return None;
        }
        let mut challenges: HashMap<String, ChallengeRow> = HashMap::new();
        let mut games: HashMap<String, LiveRow> = HashMap::new();
        for filter in qi_protocol::LOBBY_FILTERS {
            let rows = shown(&state, filter, false);
            challenges.extend(rows.challenges.into_iter().map(|row| (row.game.clone(), row)));
            games.extend(rows.games.into_iter().map(|row| (row.game.clone(), row)));
        }
        let mut candidates = Candidates {
            challenges: challenges.into_values().collect(),
            games: games.into_values().collect(),
        };
        candidates.challenges.sort_by(|a, b| a.game.cmp(&b.game));
        candidates.games.sort_by(|a, b| a.game.cmp(&b.game));
        Some(candidates)
    }

    /// Shows the other nodes' candidates beside this node's rows: `nodes` holds each live
    /// node's, when it changed (a node missing from `live` is dead or gone: its rows go).
    pub fn set_remote(&self, nodes: HashMap<u32, Candidates>, live: &[u32]) {
        let mut state = self.lock();
        let before = state.remote.len();
        state.remote.retain(|node, _| live.contains(node));
        let mut changed = state.remote.len() != before;
        for (node, candidates) in nodes {
            let old = state.remote.insert(node, candidates);
            let new = &state.remote[&node];
            if old.as_ref().is_none_or(|old| old.challenges != new.challenges) {
                changed = true;
            }
        }
        if changed {
            state.challenges_changed = true;
        }
    }

    /// `conn` stops following (it left the lobby); how often it followed is kept.
    pub fn leave(&self, conn: ConnId) {
        if let Some(follower) = self.followers_lock().get_mut(&conn) {
            follower.following = false;
            follower.challenges.clear();
            follower.games.clear();
        }
    }

    /// `conn` closed: everything about it goes.
    pub fn forget(&self, conn: ConnId) {
        self.followers_lock().remove(&conn);
    }

    /// How many follow.
    #[must_use]
    pub fn followers(&self) -> usize {
        self.followers_lock().values().filter(|follower| follower.following).count()
    }

    /// The quick-pairing queues the followers count.
    #[must_use]
    pub fn counted_queues(&self) -> Vec<String> {
        let followers = self.followers_lock();
        let mut keys: Vec<String> =
            followers.values().filter(|f| f.following).filter_map(|f| f.seek.clone()).collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// Sends each follower what changed for it: challenges (and, when `games`, the games being
    /// played) and the count of its quick-pairing queue from `waiting` (by key).
    pub fn tick(&self, games: bool, waiting: &HashMap<String, u32>) {
        let mut followers = self.followers_lock();
        followers.retain(|_, follower| !follower.outbox.is_closed());
        let reset_due = followers.values().any(|follower| follower.following && follower.reset);
        // The rows each filter shows, made under the rows' lock only as long as that takes.
        let (challenges_changed, cache) = {
            let mut state = self.lock();
            let changed = std::mem::take(&mut state.challenges_changed);
            let mut cache: HashMap<Option<Variant>, Shown> = HashMap::new();
            if changed || games || reset_due {
                for follower in followers.values() {
                    cache
                        .entry(follower.variant)
                        .or_insert_with(|| shown(&state, follower.variant, true));
                }
            }
            (changed, cache)
        };
        let empty = Shown { challenges: Vec::new(), games: Vec::new() };
        let mut frames: Vec<(LobbyUpdate, Arc<str>)> = Vec::new();
        for follower in followers.values_mut().filter(|follower| follower.following) {
            let rows = cache.get(&follower.variant).unwrap_or(&empty);
            let mut update = LobbyUpdate::default();
            let reset = std::mem::take(&mut follower.reset);
            let sent_games = if reset || !games { HashMap::new() } else { follower.games.clone() };
            if reset {
                follower.challenges.clear();
                follower.games.clear();
                update.reset = true;
            }
            if reset || challenges_changed {
                // The newest are shown; those below them that this follower has stay (while
                // among the newest it may keep), so that churn above them costs no resend.
                let kept: Vec<ChallengeRow> = rows
                    .challenges
                    .iter()
                    .enumerate()
                    .filter(|(rank, row)| {
                        *rank < LOBBY_MAX_CHALLENGES || follower.challenges.contains_key(&row.game)
                    })
                    .map(|(_, row)| row.clone())
                    .collect();
                diff(
                    &mut follower.challenges,
                    &kept,
                    |row| row.game.as_str(),
                    &mut update.challenges,
                    &mut update.gone,
                );
            }
            if reset || games {
                let mut changed = Vec::new();
                diff(
                    &mut follower.games,
                    &rows.games,
                    |row| row.game.as_str(),
                    &mut changed,
                    &mut update.gone,
                );
                // A row already sent that changed only by its moves goes as its position.
                for row in changed {
                    match sent_games.get(&row.game) {
                        Some(old) if same_but_moves(old, &row) => update.moved.push(LivePosition {
                            game: row.game.clone(),
                            position: row.position.clone(),
                            plies: row.plies,
                            last: row.last.clone(),
                        }),
                        _ => update.games.push(row),
                    }
                }
            }
            let count = follower.seek.as_ref().map(|key| waiting.get(key).copied().unwrap_or(0));
            let recount = std::mem::take(&mut follower.recount);
            if count != follower.waiting || ((reset || recount) && count.is_some()) {
                follower.waiting = count;
                update.waiting = count;
            }
            if update.is_empty() {
                continue;
            }
            // Followers of one filter mostly get the same update: it is written out once.
            let text = match frames.iter().find(|(sent, _)| *sent == update) {
                Some((_, text)) => Arc::clone(text),
                None => {
                    let text: Arc<str> =
                        ServerMessage::Lobby { update: update.clone() }.to_json().into();
                    frames.push((update, Arc::clone(&text)));
                    text
                }
            };
            follower.outbox.send_text(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_protocol::Seat;

    fn spec(variant: &str) -> GameSpec {
        let variant = Variant::parse(variant).unwrap();
        GameSpec::of(variant)
    }

    fn challenge(id: &str, variant: &str, at: u64) -> Listing {
        Listing::Challenge(ChallengeRow {
            game: id.into(),
            spec: spec(variant),
            seat: Seat::First,
            name: "Ann".into(),
            rating: None,
            created_unix_ms: at,
        })
    }

    fn live(id: &str, variant: &str, watchers: u32, plies: u32) -> Listing {
        Listing::Live(LiveRow {
            game: id.into(),
            spec: spec(variant),
            names: ["Ann".into(), "Bo".into()],
            ratings: [None, None],
            watchers,
            position: format!("position after {plies}"),
            plies,
            last: None,
        })
    }

    /// The lobby updates waiting in `frames`.
    fn heard(frames: &mut tokio::sync::mpsc::Receiver<std::sync::Arc<str>>) -> Vec<LobbyUpdate> {
        let mut updates = Vec::new();
        while let Ok(text) = frames.try_recv() {
            if let Ok(ServerMessage::Lobby { update }) = ServerMessage::parse(&text) {
                updates.push(update);
            }
        }
        updates
    }

    #[test]
    fn followers_get_their_rows_then_only_what_changed() {
        let lobby = Lobby::default();
        lobby.set("c1", Some(challenge("c1", "chess", 1)));
        lobby.set("c2", Some(challenge("c2", "gomoku", 2)));
        lobby.set("g1", Some(live("g1", "chess", 0, 4)));
        let (outbox, mut receiver) = Outbox::new();
        lobby.follow(1, outbox, Some(Variant::Chess), Some("chess|".into())).unwrap();
        let waiting = HashMap::from([("chess|".to_owned(), 2)]);
        lobby.tick(false, &waiting);
        let [first] = heard(&mut receiver).try_into().unwrap();
        assert!(first.reset);
        assert_eq!(first.challenges.len(), 1, "chess only");
        assert_eq!(first.games.len(), 1);
        assert_eq!(first.waiting, Some(2));
        // Nothing changed: nothing sent.
        lobby.tick(true, &waiting);
        assert!(heard(&mut receiver).is_empty());
        // A move changes a game's row: it goes with the next games tick only.
        lobby.set("g1", Some(live("g1", "chess", 0, 5)));
        lobby.tick(false, &waiting);
        assert!(heard(&mut receiver).is_empty());
        lobby.tick(true, &waiting);
        let [moved] = heard(&mut receiver).try_into().unwrap();
        assert_eq!((moved.games.len(), moved.challenges.len(), moved.reset), (0, 0, false));
        assert_eq!(moved.moved.len(), 1, "a move sends the position alone");
        assert_eq!(moved.moved[0].plies, 5);
        // A change of more than the moves sends the row.
        lobby.set("g1", Some(live("g1", "chess", 3, 5)));
        lobby.tick(true, &waiting);
        let [watched] = heard(&mut receiver).try_into().unwrap();
        assert_eq!((watched.games.len(), watched.moved.len()), (1, 0));
        // A challenge taken goes at once; another kind's challenge is not this follower's.
        lobby.set("c1", Some(live("c1", "chess", 0, 0)));
        lobby.set("c3", Some(challenge("c3", "xiangqi", 3)));
        lobby.tick(false, &waiting);
        let [taken] = heard(&mut receiver).try_into().unwrap();
        assert_eq!(taken.gone, vec!["c1".to_owned()]);
        assert!(taken.challenges.is_empty());
        // The queue's count when it changes.
        lobby.tick(false, &HashMap::new());
        let [count] = heard(&mut receiver).try_into().unwrap();
        assert_eq!(count.waiting, Some(0));
    }

    #[test]
    fn followers_see_the_newest_challenges_and_the_most_watched_games() {
        let lobby = Lobby::default();
        for n in 0..(LOBBY_MAX_CHALLENGES as u64 + 5) {
            lobby.set(&format!("c{n:03}"), Some(challenge(&format!("c{n:03}"), "chess", n)));
        }
        for n in 0..(LOBBY_MAX_GAMES as u32 + 5) {
            lobby.set(&format!("g{n:03}"), Some(live(&format!("g{n:03}"), "banqi", n, 1)));
        }
        let (outbox, mut receiver) = Outbox::new();
        lobby.follow(1, outbox, None, None).unwrap();
        lobby.tick(false, &HashMap::new());
        let [all] = heard(&mut receiver).try_into().unwrap();
        assert_eq!(all.challenges.len(), LOBBY_MAX_CHALLENGES);
        assert!(all.challenges.iter().all(|row| row.created_unix_ms >= 5), "the newest");
        assert_eq!(all.games.len(), LOBBY_MAX_GAMES);
        assert!(all.games.iter().all(|row| row.watchers >= 5), "the most watched");
        assert_eq!(all.waiting, None);
        // A newer challenge comes and goes: the one it pushes below the newest is kept, so
        // nothing but the newcomer is sent, and nothing but its going.
        lobby.set("new", Some(challenge("new", "chess", 1_000)));
        lobby.tick(false, &HashMap::new());
        let [came] = heard(&mut receiver).try_into().unwrap();
        assert_eq!((came.challenges.len(), came.gone.len()), (1, 0));
        lobby.set("new", None);
        lobby.tick(false, &HashMap::new());
        let [went] = heard(&mut receiver).try_into().unwrap();
        assert_eq!((went.challenges.len(), went.gone), (0, vec!["new".to_owned()]));
        // Pushed below the newest the follower may keep, a row goes.
        for n in 0..LOBBY_KEEP_CHALLENGES as u64 {
            lobby
                .set(&format!("d{n:03}"), Some(challenge(&format!("d{n:03}"), "chess", 2_000 + n)));
        }
        lobby.tick(false, &HashMap::new());
        let [flood] = heard(&mut receiver).try_into().unwrap();
        assert_eq!(flood.challenges.len(), LOBBY_MAX_CHALLENGES, "the newest");
        assert_eq!(flood.gone.len(), LOBBY_MAX_CHALLENGES, "the old ones pushed out of reach");
    }

    #[test]
    fn following_anew_is_limited() {
        let lobby = Lobby::default();
        let (outbox, _receiver) = Outbox::new();
        // Each change of filter brings the whole list: counted.
        for n in 0..FOLLOWS_PER_WINDOW {
            let variant = if n % 2 == 0 { Variant::Chess } else { Variant::Xiangqi };
            lobby.follow(1, outbox.clone(), Some(variant), None).unwrap();
        }
        let refused = lobby.follow(1, outbox.clone(), Some(Variant::Gomoku), None).unwrap_err();
        assert_eq!(refused.code, ErrorCode::RateLimited);
        assert!(refused.detail.contains("at most"), "{}", refused.detail);
        // Leaving and following again is counted as well.
        lobby.leave(1);
        assert!(lobby.follow(1, outbox.clone(), None, None).is_err(), "still limited");
        // The same filter with another game counted is not following anew.
        lobby.forget(3);
        for _ in 0..FOLLOWS_PER_WINDOW * 2 {
            lobby.follow(3, outbox.clone(), None, Some("chess|".into())).unwrap();
            lobby.follow(3, outbox.clone(), None, Some("gomoku|".into())).unwrap();
        }
        // (A filter by a game that does not exist cannot be asked for: the message naming
        // it does not parse, see qi-protocol's tests.)
        lobby.forget(1);
        lobby.forget(3);
        assert_eq!(lobby.followers(), 0);
    }
}
