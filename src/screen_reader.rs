//! The screen-reader mode (a setting, or `sr=1` in a link): a text field that takes moves in
//! the game's own notation (SAN, WXF or Chinese, coordinates, `flip b3`, gomoku points and
//! opening words) and commands that read the board aloud — `pieces`, `file e`, `rank 4`,
//! `where king`, `last`, `clock`, `turn`, `help` — each answered in a log a screen reader reads.
//! Moves are played through the same state as the board's gestures, so hot-seat, the computer
//! and online play all take them; what a move did is said in the page's live region.

use qi_i18n::fold::fold_case;
use qi_rules::any::AnyGame;
use qi_rules::{Cell, Side};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::components::SharedState;
use crate::state::{Action, Clocks, PlayState};
use qi_i18n::text::{Lang, Text, fill, piece_name, role_name, t};

/// How many answers the log keeps.
const LOG_LINES: usize = 8;
/// How many moves `last` says.
const LAST_MOVES: usize = 6;

/// The commands, each with its words in English, Chinese and Vietnamese.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Pieces,
    File,
    Rank,
    Where,
    Last,
    Clock,
    Turn,
    Help,
}

const COMMANDS: [(Command, &[&str]); 8] = [
    (Command::Pieces, &["pieces", "board", "棋子", "quân"]),
    (Command::File, &["file", "列", "cột"]),
    (Command::Rank, &["rank", "行", "hàng"]),
    (Command::Where, &["where", "在哪", "ở đâu", "đâu"]),
    (Command::Last, &["last", "moves", "最近", "nước vừa đi", "vừa"]),
    (Command::Clock, &["clock", "time", "时钟", "đồng hồ"]),
    (Command::Turn, &["turn", "status", "轮到", "lượt"]),
    (Command::Help, &["help", "?", "帮助", "trợ giúp"]),
];

/// What typing `input` does in `state` at `now`: the answer to say (empty for a move, which
/// the live region says) and the action to dispatch, if any.
#[must_use]
pub fn answer(
    state: &PlayState,
    input: &str,
    now: f64,
    clocks: &PageClocks,
) -> (String, Option<Action>) {
    let lang = state.settings.lang;
    // Full-width spaces and question marks, as a Chinese keyboard types them.
    let normalised = input.replace('\u{3000}', " ").replace('？', "?");
    let input = normalised.trim();
    if input.is_empty() {
        return (t(lang, Text::SrHelp).to_owned(), None);
    }
    let lower = fold_case(input);
    let command = COMMANDS.iter().find_map(|(command, words)| {
        words.iter().find_map(|word| {
            let rest = lower.strip_prefix(word)?;
            (rest.is_empty() || rest.starts_with(' ')).then(|| (*command, rest.trim().to_owned()))
        })
    });
    let game = state.board_game();
    let Some((command, argument)) = command else {
        // A move. Banqi's flips may be said with the word: `flip b3`.
        let text = lower.strip_prefix("flip ").map_or(input, str::trim);
        return (String::new(), Some(Action::TypeMove { text: text.to_owned(), now }));
    };
    let reply = match command {
        Command::Pieces => pieces(lang, game),
        Command::File | Command::Rank => line(lang, game, command == Command::File, &argument),
        Command::Where => where_is(lang, game, &argument),
        Command::Last => last_moves(lang, game),
        Command::Clock => match clocks {
            PageClocks::None => t(lang, Text::SrNoClock).to_owned(),
            // Online the clocks are the server's, said by the page.
            PageClocks::Said(words) => words.to_string(),
            PageClocks::Running(clocks) => clock(state, clocks, now),
        },
        Command::Turn => {
            let view = crate::components::status::status_view(state);
            view.result.map_or(view.to_move.1, |(text, _)| text)
        }
        Command::Help => t(lang, Text::SrHelp).to_owned(),
    };
    (reply, None)
}

/// Every cell of `game`'s board with what stands on it: the side that moves first (White,
/// Red, Black's stones) first, each side from the top row down.
fn occupied(game: &AnyGame) -> Vec<(Cell, String)> {
    let (files, ranks) = game.board_size();
    let mut found = Vec::new();
    for rank in (0..ranks).rev() {
        for file in 0..files {
            let cell = Cell::new(file, rank);
            if let Some(code) = game.piece_code(cell) {
                found.push((cell, code));
            }
        }
    }
    let gomoku = game.kind() == qi_rules::GameKind::Gomoku;
    let second = |code: &str| match code.chars().next() {
        Some('w') => gomoku,
        Some('r') => false,
        Some('b') => !gomoku,
        _ => true,
    };
    // A stable sort: each side keeps the reading order.
    found.sort_by_key(|(_, code)| second(code));
    found
}

/// `pieces`: each side's pieces with their squares (gomoku: the stones of each colour; banqi:
/// the face-down count too).
fn pieces(lang: Lang, game: &AnyGame) -> String {
    let kind = game.kind();
    let found = occupied(game);
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut face_down = 0;
    for (cell, code) in &found {
        if code == "?" {
            face_down += 1;
            continue;
        }
        let name = piece_name(lang, kind, code);
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, cells)) => cells.push(cell.to_string()),
            None => groups.push((name, vec![cell.to_string()])),
        }
    }
    let mut parts: Vec<String> =
        groups.into_iter().map(|(name, cells)| format!("{name} {}", cells.join(" "))).collect();
    if face_down > 0 {
        parts.push(fill(t(lang, Text::SrFaceDown), "n", &face_down.to_string()));
    }
    if parts.is_empty() {
        return t(lang, Text::SrEmpty).to_owned();
    }
    parts.join("; ")
}

/// `file e` or `rank 4`: every square of the line, from the top or the left, with what is on
/// it.
fn line(lang: Lang, game: &AnyGame, file: bool, argument: &str) -> String {
    let (files, ranks) = game.board_size();
    let index = if file {
        argument.chars().next().filter(char::is_ascii_lowercase).map(|c| c as u8 - b'a')
    } else {
        argument.parse::<u8>().ok().and_then(|r| r.checked_sub(1))
    };
    let Some(index) = index.filter(|&i| i < if file { files } else { ranks }) else {
        return t(lang, Text::SrWhichLine).to_owned();
    };
    let cells: Vec<Cell> = if file {
        (0..ranks).rev().map(|rank| Cell::new(index, rank)).collect()
    } else {
        (0..files).map(|f| Cell::new(f, index)).collect()
    };
    let kind = game.kind();
    cells
        .into_iter()
        .map(|cell| {
            let what = game.piece_code(cell).map_or_else(
                || t(lang, Text::SrEmpty).to_owned(),
                |code| piece_name(lang, kind, &code),
            );
            format!("{cell} {what}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `where king`: the squares of every piece whose name holds the word (in the player's
/// language or in English).
fn where_is(lang: Lang, game: &AnyGame, argument: &str) -> String {
    let kind = game.kind();
    let wanted = fold_case(argument.trim());
    if wanted.is_empty() {
        return t(lang, Text::SrHelp).to_owned();
    }
    let matches = |code: &str| {
        [lang, Lang::En].iter().any(|&l| {
            fold_case(&piece_name(l, kind, code)).contains(&wanted)
                || fold_case(role_name(l, kind, code)).contains(&wanted)
        })
    };
    let found: Vec<String> = occupied(game)
        .into_iter()
        .filter(|(_, code)| code != "?" && matches(code))
        .map(|(cell, code)| format!("{} {cell}", piece_name(lang, kind, &code)))
        .collect();
    if found.is_empty() {
        return fill(t(lang, Text::SrNotFound), "what", argument.trim());
    }
    found.join(", ")
}

/// `last`: the last few moves in words, oldest first.
fn last_moves(lang: Lang, game: &AnyGame) -> String {
    let mut game = game.clone();
    let mut said = Vec::new();
    while said.len() < LAST_MOVES {
        let Some(words) = qi_i18n::speech::last_move_words(lang, &game) else { break };
        said.push(words);
        game.undo_move();
    }
    if said.is_empty() {
        return t(lang, Text::SrNoMoves).to_owned();
    }
    said.reverse();
    said.join("; ")
}

/// The clocks a page has, for `clock`.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PageClocks {
    /// No clock.
    #[default]
    None,
    /// Clocks kept elsewhere, in words (online: the server's clocks).
    Said(AttrValue),
    /// The page's own clocks (the main page's hot-seat clocks).
    Running(Clocks),
}

/// `clock`: each side's time left.
fn clock(state: &PlayState, clocks: &Clocks, now: f64) -> String {
    [Side::First, Side::Second]
        .iter()
        .map(|&side| {
            let seconds = (clocks.remaining_at(side, now) / 1000.0).max(0.0) as u64;
            let name = crate::components::status::side_label(state, side);
            format!("{name} {}:{:02}", seconds / 60, seconds % 60)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Properties of [`ScreenReaderPanel`].
#[derive(Properties, PartialEq)]
pub struct ScreenReaderProps {
    /// The state the answers read.
    pub state: SharedState,
    /// Where a typed move goes.
    pub dispatch: Callback<Action>,
    /// The page's clocks, for `clock`.
    #[prop_or_default]
    pub clocks: PageClocks,
}

/// The screen-reader mode's field and its log of answers.
#[function_component(ScreenReaderPanel)]
pub fn screen_reader_panel(props: &ScreenReaderProps) -> Html {
    // Each answer with its number, the key that keeps earlier lines as they are (a log read
    // again from the top at every answer would be no use).
    let log = use_state(Vec::<(u64, String)>::new);
    let input = use_node_ref();
    let lang = props.state.get().settings.lang;
    let onsubmit = {
        let (log, input, state, dispatch, clocks) = (
            log.clone(),
            input.clone(),
            props.state.clone(),
            props.dispatch.clone(),
            props.clocks.clone(),
        );
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let Some(field) = input.cast::<HtmlInputElement>() else { return };
            let typed = field.value();
            let (reply, action) = answer(state.get(), &typed, crate::web::now_ms(), &clocks);
            if let Some(action) = action {
                dispatch.emit(action);
            }
            field.set_value("");
            if !reply.is_empty() {
                let mut lines = (*log).clone();
                let number = lines.last().map_or(0, |(n, _)| n + 1);
                lines.push((number, reply));
                let drop = lines.len().saturating_sub(LOG_LINES);
                lines.drain(..drop);
                log.set(lines);
            }
        })
    };
    let kind = props.state.get().game.kind();
    html! {
        <section class="screen-reader panel" aria-label={t(lang, Text::ScreenReader)} data-testid="screen-reader">
            <form {onsubmit}>
                <label>
                    <span>{ t(lang, Text::SrField) }</span>
                    <input ref={input} type="text" autocomplete="off" autocapitalize="off" spellcheck="false"
                           data-testid="sr-input" data-game={kind.name()} />
                </label>
            </form>
            <p class="sr-help">{ t(lang, Text::SrHelp) }</p>
            <ol class="sr-log" role="log" aria-live="polite" data-testid="sr-log">
                { for log.iter().map(|(number, line)| html! { <li key={*number}>{ line.clone() }</li> }) }
            </ol>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::AppState;
    use crate::state::{Mode, Settings};
    use qi_rules::GameKind;

    fn state(kind: GameKind, lang: Lang) -> AppState {
        let mut settings = Settings::new(lang);
        settings.kind = kind;
        settings.mode = Mode::HotSeat;
        AppState::new(settings, 3)
    }

    fn typed(state: &mut AppState, text: &str) -> String {
        let (reply, action) = answer(state, text, 0.0, &PageClocks::None);
        if let Some(action) = action {
            state.apply(action);
        }
        reply
    }

    #[test]
    fn clock_says_the_page_s_own_clocks_the_server_s_words_or_none() {
        let mut settings = Settings::new(Lang::En);
        settings.mode = Mode::HotSeat;
        settings.clock = Some(crate::state::ClockConfig { base_secs: 300, increment_secs: 0 });
        let mut s = AppState::new(settings, 0);
        s.apply(Action::ClickCell { cell: Cell::new(4, 1), now: 1_000.0 });
        s.apply(Action::ClickCell { cell: Cell::new(4, 3), now: 1_000.0 });
        let running = PageClocks::Running(s.clocks.clone().expect("clocks on"));
        // The clocks start with White's first move; 65 s later Black, to move, has used 65 s of
        // its five minutes.
        let (said, _) = answer(&s, "clock", 66_000.0, &running);
        assert_eq!(said, "White 5:00, Black 3:55");
        let (said, _) = answer(&s, "clock", 66_000.0, &PageClocks::Said("White 1:00".into()));
        assert_eq!(said, "White 1:00");
        let (said, _) = answer(&s, "clock", 66_000.0, &PageClocks::None);
        assert_eq!(said, t(Lang::En, Text::SrNoClock));
    }

    #[test]
    fn commands_read_the_board_and_moves_are_played() {
        let mut s = state(GameKind::Chess, Lang::En);
        assert_eq!(typed(&mut s, "e4"), "");
        assert_eq!(typed(&mut s, "e5"), "");
        assert_eq!(typed(&mut s, "Nf3"), "");
        assert_eq!(s.record.moves, ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(typed(&mut s, "where king"), "white king e1, black king e8");
        let file = typed(&mut s, "file e");
        assert!(file.starts_with("e8 black king, e7 empty, e6 empty, e5 black pawn"), "{file}");
        assert!(typed(&mut s, "rank 3").contains("f3 white knight"));
        let last = typed(&mut s, "last");
        assert_eq!(last, "White pawn to e4; Black pawn to e5; White knight to f3");
        assert!(typed(&mut s, "pieces").contains("white rook a1 h1"));
        assert_eq!(typed(&mut s, "turn"), "Black to move");
        assert_eq!(typed(&mut s, "clock"), "No clock in this game.");
        assert_eq!(typed(&mut s, "file z"), "Say which: file e, rank 4.");
        assert_eq!(typed(&mut s, "where dragon"), "No dragon on the board.");
        // A move that may not be played is refused, with its reason, and nothing is lost.
        typed(&mut s, "Ke3");
        assert_eq!(s.record.moves.len(), 3);
        assert!(s.notice.is_some());
    }

    #[test]
    fn a_move_typed_out_of_turn_is_said_not_dropped() {
        let mut s = state(GameKind::Chess, Lang::En);
        s.play_mut().settings.mode = Mode::VsComputer { human: Side::Second };
        typed(&mut s, "e4");
        assert!(s.record.moves.is_empty());
        assert_eq!(s.notice, Some(crate::state::Notice::NotYourTurn));
    }

    #[test]
    fn every_game_takes_its_own_notation() {
        let mut s = state(GameKind::Xiangqi, Lang::Zh);
        typed(&mut s, "炮二平五");
        typed(&mut s, "h10g8");
        assert_eq!(s.record.moves, ["h3e3", "h10g8"]);
        assert!(typed(&mut s, "where 马").contains("黑马 g8"), "{}", typed(&mut s, "where 马"));
        let mut s = state(GameKind::Banqi, Lang::En);
        typed(&mut s, "flip b3");
        assert_eq!(s.record.moves.len(), 1);
        assert!(typed(&mut s, "pieces").contains("31 face down"));
        let mut s = state(GameKind::Gomoku, Lang::Vi);
        typed(&mut s, "h8");
        typed(&mut s, "i9");
        assert_eq!(s.record.moves, ["h8", "i9"]);
        assert_eq!(typed(&mut s, "quân"), "quân đen h8; quân trắng i9");
    }
}
