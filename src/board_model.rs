//! What the board shows, worked out from the state: the one place where rules meet the board.

use qi_rules::GameKind;

use crate::board::{BoardView, CellView, Geometry, HintEnd, Style};
use crate::state::{AppState, HintMove, PlayState};
use qi_i18n::text::{Text, piece_name, t};

/// The board's view of `state`: the shown position, hints for the selected piece, the last move,
/// the king in check and the winning line.
#[must_use]
pub fn board_view(state: &PlayState) -> BoardView {
    board_view_hinted(state, None)
}

/// [`board_view`] with the engine's hint on the board.
fn board_view_hinted(state: &PlayState, hint: Option<HintMove>) -> BoardView {
    let lang = state.settings.lang;
    let game = state.shown_game();
    let kind = game.kind();
    let (files, ranks) = game.board_size();
    let geometry = geometry_of(state, kind, files, ranks);
    let live = state.viewing.is_none();
    let selected = state.selected.filter(|_| live);
    let premove = state.premove.filter(|_| live);
    let ghost = state.ghost.filter(|_| state.accepts_moves());
    // The stone the tap would put: its colour, not the seat's (an opening rule may differ).
    let stone_colour = match &game {
        qi_rules::any::AnyGame::Gomoku(g) => g.colour_to_move(),
        other => other.side_to_move(),
    };
    let ghost_code = if stone_colour == qi_rules::Side::First { "b" } else { "w" };
    let hints = selected.map(|from| game.legal_destinations(from)).unwrap_or_default();
    let last = game.last_move();
    let checked = game.checked_king();
    let line = if live { state.result().map(|r| r.line).unwrap_or_default() } else { Vec::new() };
    // A step made with a button (a gomoku colour choice) marks the button, not the board.
    let hint = hint.filter(|h| live && h.step.is_none());
    let slide = last.filter(|_| live && state.computer_moved).and_then(|m| {
        let from = m.from.filter(|&f| f != m.to)?;
        let (from_row, from_column) = geometry.position_of(from);
        let (to_row, to_column) = geometry.position_of(m.to);
        let dx = i16::from(from_column) - i16::from(to_column);
        let dy = i16::from(from_row) - i16::from(to_row);
        Some((m.to, (dx as i8, dy as i8)))
    });
    let numbers = stone_numbers(state, kind, files, ranks);
    let index = |cell: qi_rules::Cell| cell_index(files, cell);
    let offers = offered_stones(&game);
    let cells = geometry
        .cells_in_screen_order()
        .map(|cell| {
            let piece = game.piece_code(cell);
            let what = match &piece {
                Some(code) => piece_name(lang, kind, code),
                None => t(lang, Text::Empty).to_owned(),
            };
            let on_last = last.is_some_and(|m| m.to == cell || m.from == Some(cell));
            let offer = offers.iter().position(|&o| o == cell).map(|i| i + 1);
            let mut what = match offer {
                Some(n) => qi_i18n::text::fill(t(lang, Text::OfferedStone), "n", &n.to_string()),
                None => what,
            };
            // A stone's number, when shown, is in its name too (what is seen is what is said).
            if let Some(n) = numbers.get(index(cell)).copied().flatten() {
                what.push_str(&format!(" {n}"));
            }
            // What colour alone shows, said too: the last move, check, hints, the winning line.
            let suggested = hint.is_some_and(|h| h.to == cell || h.from == Some(cell));
            for (on, text) in [
                (on_last, Text::CellLastMove),
                (checked == Some(cell), Text::CellCheck),
                (hints.contains(&cell), Text::CellLegal),
                (suggested, Text::CellSuggested),
                (line.contains(&cell), Text::CellWinning),
            ] {
                if on {
                    what.push_str(", ");
                    what.push_str(t(lang, text));
                }
            }
            CellView {
                cell,
                offer,
                label: format!("{cell}, {what}"),
                hint: hints.contains(&cell),
                last_move: on_last,
                check: checked == Some(cell),
                winning: line.contains(&cell),
                selected: selected == Some(cell),
                premove: premove.is_some_and(|p| p.from == cell || p.to == cell),
                ghost: (ghost == Some(cell)).then(|| ghost_code.to_owned()),
                // On a stone only: an offered fifth stone's point shows its number instead.
                last_stone: kind == GameKind::Gomoku
                    && piece.is_some()
                    && last.is_some_and(|m| m.to == cell),
                suggested: match hint {
                    Some(h) if h.to == cell => Some(HintEnd::To),
                    Some(h) if h.from == Some(cell) => Some(HintEnd::From),
                    _ => None,
                },
                arrived_from: slide.filter(|(to, _)| *to == cell).map(|(_, offset)| offset),
                number: numbers.get(index(cell)).copied().flatten(),
                piece,
            }
        })
        .collect();
    BoardView {
        geometry,
        cells,
        // On the computer's turn the board takes a move to queue (a premove).
        interactive: state.accepts_moves() || state.premove_allowed(),
        label: t(lang, Text::Board).to_owned(),
        zoom_label: t(lang, Text::ZoomBoard),
        // Only shapes on this board: a record or a link may name any cell.
        shapes: state
            .record
            .shapes_at(&state.shown_path())
            .iter()
            .copied()
            .filter(|s| [s.from, s.to].iter().all(|c| c.file < files && c.rank < ranks))
            .collect(),
        hint_move: hint.map(|h| (h.from, h.to)),
        engine_move: None,
    }
}

/// The main page's board: [`board_view`] with the engine's arrows, the hint and the
/// analysis's best move.
#[must_use]
pub fn board_view_with_engine(state: &AppState) -> BoardView {
    let mut view = board_view_hinted(&state.play, state.engine.hint);
    view.engine_move = state.shown_analysis().and_then(|analysis| {
        let mut after = state.shown_game();
        after.apply(*analysis.best()?.moves.first()?).ok()?;
        let cells = after.last_move()?;
        Some((cells.from, cells.to))
    });
    view
}

/// The board's shape and labels for `kind`, as the settings ask.
fn geometry_of(state: &PlayState, kind: GameKind, files: u8, ranks: u8) -> Geometry {
    let style = match kind {
        GameKind::Chess => Style::Checkered,
        GameKind::Xiangqi => Style::XiangqiPoints,
        GameKind::Banqi => Style::Squares,
        GameKind::Gomoku => Style::GomokuPoints,
    };
    let file_numbers = kind == GameKind::Xiangqi && state.settings.file_numbers;
    let chinese_numerals = state.settings.lang == qi_i18n::text::Lang::Zh;
    let symbols = state.settings.piece_symbols;
    Geometry {
        files,
        ranks,
        style,
        flipped: state.flipped,
        file_numbers,
        chinese_numerals,
        symbols,
    }
}

/// Gomoku: each stone's move number by cell (row by row), when asked for: a board-sized table,
/// not a map (no hash table code in the page for this).
fn stone_numbers(state: &PlayState, kind: GameKind, files: u8, ranks: u8) -> Vec<Option<usize>> {
    let mut numbers = vec![None; usize::from(files) * usize::from(ranks)];
    let index = |cell: qi_rules::Cell| cell_index(files, cell);
    if kind == GameKind::Gomoku && state.settings.stone_numbers {
        // Stones are counted, not an opening's colour choices.
        let shown = state.shown_moves();
        let stones = shown.iter().filter_map(|text| text.parse::<qi_rules::Cell>().ok());
        for (i, cell) in stones.enumerate() {
            if let Some(slot) = numbers.get_mut(index(cell)) {
                *slot = Some(i + 1);
            }
        }
    }
    numbers
}

/// A cell's place in a board-sized table, row by row (`files` to a row).
fn cell_index(files: u8, cell: qi_rules::Cell) -> usize {
    usize::from(cell.rank) * usize::from(files) + usize::from(cell.file)
}

/// Soosõrv-8: the fifth stones offered, while they are offered or to be picked from.
fn offered_stones(game: &qi_rules::any::AnyGame) -> Vec<qi_rules::Cell> {
    match game {
        qi_rules::any::AnyGame::Gomoku(g)
            if matches!(
                g.phase(),
                qi_rules::gomoku::Phase::Offer | qi_rules::gomoku::Phase::Select
            ) =>
        {
            g.offers()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, Settings, SettingsAction, TreeAction};
    use qi_i18n::text::Lang;
    use qi_rules::Cell;

    fn cell(text: &str) -> Cell {
        text.parse().unwrap()
    }

    #[test]
    fn the_view_marks_hints_last_move_and_check() {
        let mut state = AppState::new(Settings::new(Lang::En), 0);
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            state.apply(Action::Drop { from: cell(from), to: cell(to), now: 0.0 });
        }
        let view = board_view_with_engine(&state);
        let find = |name: &str| view.cells.iter().find(|c| c.cell == cell(name)).unwrap();
        assert!(find("e1").check, "the mated king is marked");
        assert!(find("d8").last_move && find("h4").last_move);
        assert_eq!(find("h4").piece.as_deref(), Some("bQ"));
        // What colour shows is in the names too.
        assert_eq!(find("h4").label, "h4, black queen, last move");
        assert_eq!(find("e1").label, "e1, white king, in check");
        assert!(!view.interactive, "checkmate ends the game");
        assert_eq!(view.cells.len(), 64);
        assert_eq!(view.cells[0].cell, cell("a8"), "White's view starts top left at a8");
    }

    #[test]
    fn hints_follow_the_selection() {
        let mut settings = Settings::new(Lang::Zh);
        settings.kind = GameKind::Xiangqi;
        let mut state = AppState::new(settings, 0);
        state.apply(Action::ClickCell { cell: cell("b1"), now: 0.0 });
        let view = board_view_with_engine(&state);
        let hinted: Vec<String> =
            view.cells.iter().filter(|c| c.hint).map(|c| c.cell.to_string()).collect();
        assert_eq!(hinted.len(), 2, "{hinted:?}");
        assert!(hinted.contains(&"c3".to_owned()) && hinted.contains(&"a3".to_owned()));
        assert_eq!(view.cells.len(), 90);
        assert!(view.cells.iter().any(|c| c.label == "b1, 红马"));
    }

    #[test]
    fn gomoku_stones_carry_their_move_numbers_when_asked() {
        let mut settings = Settings::new(Lang::En);
        settings.kind = GameKind::Gomoku;
        let mut state = AppState::new(settings, 0);
        for point in ["h8", "h9", "i8"] {
            state.apply(Action::ClickCell { cell: cell(point), now: 0.0 });
        }
        let numbered = |state: &AppState| -> Vec<(String, usize)> {
            let view = board_view_with_engine(state);
            let mut out: Vec<_> =
                view.cells.iter().filter_map(|c| Some((c.cell.to_string(), c.number?))).collect();
            out.sort_by_key(|(_, n)| *n);
            out
        };
        assert!(numbered(&state).is_empty(), "off by default");
        state.apply(Action::Setting(SettingsAction::StoneNumbers(true)));
        assert_eq!(
            numbered(&state),
            [("h8".to_owned(), 1), ("h9".to_owned(), 2), ("i8".to_owned(), 3)]
        );
        // Stepping back shows the numbers of the position shown.
        state.apply(Action::Tree(TreeAction::StepBack));
        assert_eq!(numbered(&state).len(), 2);
    }

    #[test]
    fn a_suggested_move_marks_its_two_ends_apart() {
        let mut state = AppState::new(Settings::new(Lang::En), 0);
        state.engine.hint =
            Some(crate::state::HintMove { from: Some(cell("g1")), to: cell("f3"), step: None });
        let view = board_view_with_engine(&state);
        let marked: Vec<(String, HintEnd)> =
            view.cells.iter().filter_map(|c| Some((c.cell.to_string(), c.suggested?))).collect();
        assert_eq!(marked, [("f3".to_owned(), HintEnd::To), ("g1".to_owned(), HintEnd::From)]);
        // And an arrow between them, gone while a past position is shown.
        assert_eq!(view.hint_move, Some((Some(cell("g1")), cell("f3"))));
        state.apply(Action::Pick { cell: cell("e2") });
        state.apply(Action::Drop { from: cell("e2"), to: cell("e4"), now: 0.0 });
        state.apply(Action::Tree(TreeAction::StepBack));
        state.engine.hint =
            Some(crate::state::HintMove { from: Some(cell("g8")), to: cell("f6"), step: None });
        assert_eq!(board_view_with_engine(&state).hint_move, None);
    }
}
