//! A puzzle in a link.
//!
//! - `?puzzle=<game>:<id>` names a puzzle of Qi's database (`?puzzle=chess:00sHx`), which the
//!   app fetches to open it;
//! - with `&row=<the puzzle's row of the file>` the link carries the whole puzzle (position,
//!   moves, rating, themes), so it opens and is solved with no database and no server: what the
//!   share button and the embed use. The game link and the opening tags are left out of it.
//!
//! Links are untrusted: the row is read by [`Puzzle::read_row`], which checks every move, and
//! a row whose id is not the one named is refused.

use qi_rules::any::Variant;

use super::{Puzzle, PuzzleError, PuzzleId};
use crate::link::{Query, encode_component};

/// What a puzzle link opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleLink {
    /// A puzzle of the database, by game and id.
    Named {
        /// Its game.
        variant: Variant,
        /// Its id.
        id: PuzzleId,
    },
    /// A puzzle carried whole.
    Whole(Box<Puzzle>),
}

/// Reads the puzzle a query names; `None` when it names none (no `puzzle=`).
///
/// # Errors
/// [`PuzzleError::Link`] for a `puzzle=` that is not `<game>:<id>`, and the row's own error when
/// a carried row is not a puzzle.
#[must_use]
pub fn read(query: &Query) -> Option<Result<PuzzleLink, PuzzleError>> {
    let named = query.get("puzzle")?;
    Some(read_named(named, query.get("row")))
}

fn read_named(named: &str, row: Option<&str>) -> Result<PuzzleLink, PuzzleError> {
    let bad = || PuzzleError::Link(named.chars().take(40).collect());
    let (game, id) = named.split_once(':').ok_or_else(bad)?;
    let variant = Variant::parse(game).map_err(|_| bad())?;
    let id = PuzzleId::parse(id)?;
    let Some(row) = row else { return Ok(PuzzleLink::Named { variant, id }) };
    let puzzle = Puzzle::read_row(variant, row)?;
    if puzzle.id != id {
        return Err(bad());
    }
    Ok(PuzzleLink::Whole(Box::new(puzzle)))
}

/// The link of a database puzzle: `?puzzle=<game>:<id>`.
#[must_use]
pub fn named(puzzle: &Puzzle) -> String {
    format!("?puzzle={}:{}", puzzle.rules.variant(), puzzle.id)
}

/// The link that carries `puzzle` whole (see the module documentation).
#[must_use]
pub fn whole(puzzle: &Puzzle) -> String {
    let mut bare = puzzle.clone();
    bare.game_url.clear();
    bare.opening_tags.clear();
    format!("{}&row={}", named(puzzle), encode_component(&bare.to_row()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: &str = "00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,\
e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,\
https://lichess.org/yyznGmXs/black#34,Italian_Game";

    #[test]
    fn a_link_carries_the_puzzle_whole_or_names_it() {
        let puzzle = Puzzle::read_row(Variant::Chess, ROW).unwrap();
        assert_eq!(named(&puzzle), "?puzzle=chess:00sHx");
        let link = whole(&puzzle);
        assert!(link.len() < 200, "{link}");
        let Some(Ok(PuzzleLink::Whole(back))) = read(&Query::parse(&link)) else {
            panic!("{link}")
        };
        assert_eq!(
            (back.id.clone(), back.moves.clone(), back.rating),
            (puzzle.id.clone(), puzzle.moves.clone(), 1760)
        );
        assert!(back.game_url.is_empty());
        let Some(Ok(PuzzleLink::Named { variant, id })) =
            read(&Query::parse("?puzzle=chess:00sHx"))
        else {
            panic!()
        };
        assert_eq!((variant, id.as_str()), (Variant::Chess, "00sHx"));
        assert!(read(&Query::parse("?game=chess")).is_none());
    }

    #[test]
    fn a_bad_puzzle_link_says_what_is_wrong() {
        for bad in ["?puzzle=chess", "?puzzle=draughts:abc", "?puzzle=chess:a-b"] {
            assert!(matches!(read(&Query::parse(bad)), Some(Err(_))), "{bad}");
        }
        // A row that is not the puzzle named, and a row with an illegal move.
        let puzzle = Puzzle::read_row(Variant::Chess, ROW).unwrap();
        let other = whole(&puzzle).replace("puzzle=chess:00sHx", "puzzle=chess:zzzzz");
        assert!(matches!(read(&Query::parse(&other)), Some(Err(PuzzleError::Link(_)))));
        let illegal = whole(&puzzle).replace("a2e6", "a2e7");
        assert!(matches!(
            read(&Query::parse(&illegal)),
            Some(Err(PuzzleError::Move { index: 2, .. }))
        ));
    }
}
