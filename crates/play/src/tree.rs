//! The move tree: a line of moves whose moves may have alternatives, each a line of its own, to
//! any depth; with comments, marks and shapes along the way. A [`Path`] names a position in it.

use crate::mark::{self, Mark};
use crate::shape::{self, Shape};
use crate::sparse::Sparse;

/// A line of moves — a game's main line, or a variation — with what was said and drawn along it.
///
/// Keys count moves: `comments[n]`, `marks[n]` and `shapes[n]` go with the position after the
/// line's first `n` moves (the comment at 0 comes before the first move); `variations[i]` are the
/// alternatives to `moves[i]`, each a line that starts from the position after the first `i`
/// moves. A variation's own first move has no alternatives of its own: those are its siblings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves, in coordinate notation.
    pub moves: Vec<String>,
    /// Comments: at `n`, after the `n`-th move (at 0, before the first).
    pub comments: Sparse<String>,
    /// Move and position marks of the `n`-th move (n from 1).
    pub marks: Sparse<Vec<Mark>>,
    /// Arrows and circles on the position after `n` moves.
    pub shapes: Sparse<Vec<Shape>>,
    /// Alternatives to `moves[i]`, in the order shown (the first is the main alternative).
    pub variations: Sparse<Vec<Line>>,
}

/// One step into a variation: the alternative number `index` to the move at `at` of the line
/// the path has reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Branch {
    /// The move replaced: its index in its line (the position after the first `at` moves).
    pub at: usize,
    /// Which of its alternatives.
    pub index: usize,
}

/// A position in a move tree: the variations followed from the main line, then how many moves of
/// the last one are played. In a variation `ply` is at least 1 (its first move played); the
/// position before that is the branch point, named by the parent line's path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path {
    /// The variations entered, outermost first; empty on the main line.
    pub branches: Vec<Branch>,
    /// Moves played along the last line.
    pub ply: usize,
}

impl Path {
    /// The position after `ply` moves of the main line.
    #[must_use]
    pub fn main(ply: usize) -> Path {
        Path { branches: Vec::new(), ply }
    }

    /// Whether the position is on the main line.
    #[must_use]
    pub fn is_main_line(&self) -> bool {
        self.branches.is_empty()
    }

    /// How many moves from the start lead here.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.branches.iter().map(|b| b.at).sum::<usize>() + self.ply
    }

    /// The same position written the canonical way: a path at the start of a variation (`ply`
    /// 0) is its branch point in the parent line.
    #[must_use]
    pub fn normalized(mut self) -> Path {
        while self.ply == 0 {
            let Some(branch) = self.branches.pop() else { break };
            self.ply = branch.at;
        }
        self
    }

    /// The path of the line it ends in, entered one step further.
    fn entering(&self, at: usize, index: usize) -> Path {
        let mut branches = self.branches.clone();
        branches.push(Branch { at, index });
        Path { branches, ply: 1 }
    }
}

impl Line {
    /// A line of these moves, with nothing said or drawn.
    #[must_use]
    pub fn of_moves(moves: Vec<String>) -> Line {
        Line { moves, ..Line::default() }
    }

    /// The number of moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether it has no moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Whether any move anywhere has an alternative.
    #[must_use]
    pub fn has_variations(&self) -> bool {
        !self.variations.is_empty()
    }

    /// The line reached by following `branches` from this one.
    #[must_use]
    pub fn line(&self, branches: &[Branch]) -> Option<&Line> {
        branches.iter().try_fold(self, |line, b| line.variations.get(&b.at)?.get(b.index))
    }

    /// The line reached by following `branches` from this one, to change.
    pub fn line_mut(&mut self, branches: &[Branch]) -> Option<&mut Line> {
        branches.iter().try_fold(self, |line, b| line.variations.get_mut(&b.at)?.get_mut(b.index))
    }

    /// Whether `path` names a position in this tree.
    #[must_use]
    pub fn contains(&self, path: &Path) -> bool {
        self.line(&path.branches).is_some_and(|line| {
            path.ply <= line.len() && (path.ply > 0 || path.branches.is_empty())
        })
    }

    /// The moves from the start to `path`, in order; `None` when the tree has no such position.
    #[must_use]
    pub fn moves_to(&self, path: &Path) -> Option<Vec<&str>> {
        if !self.contains(path) {
            return None;
        }
        let mut moves = Vec::with_capacity(path.depth());
        let mut line = self;
        for branch in &path.branches {
            moves.extend(line.moves[..branch.at].iter().map(String::as_str));
            line = &line.variations[&branch.at][branch.index];
        }
        moves.extend(line.moves[..path.ply].iter().map(String::as_str));
        Some(moves)
    }

    /// The position one move further along the line `path` is on, if the line goes on.
    #[must_use]
    pub fn next(&self, path: &Path) -> Option<Path> {
        let line = self.line(&path.branches)?;
        (path.ply < line.len()).then(|| Path { branches: path.branches.clone(), ply: path.ply + 1 })
    }

    /// The position one move back: along the line, or out of a variation to its branch point.
    #[must_use]
    pub fn previous(&self, path: &Path) -> Option<Path> {
        if !self.contains(path) || (path.ply == 0 && path.branches.is_empty()) {
            return None;
        }
        Some(Path { branches: path.branches.clone(), ply: path.ply - 1 }.normalized())
    }

    /// The end of the line `path` is on.
    #[must_use]
    pub fn end_of_line(&self, path: &Path) -> Option<Path> {
        let line = self.line(&path.branches)?;
        Some(Path { branches: path.branches.clone(), ply: line.len() })
    }

    /// Plays `mv` from the position at `path`: follows the line when it is the move played there,
    /// enters the variation that starts with it when there is one, else adds it — at the end of
    /// the line, or as a new variation (the line itself stays). Returns the position after it;
    /// `None` when `path` is not in the tree.
    pub fn add_move(&mut self, path: &Path, mv: &str) -> Option<Path> {
        let path = path.clone().normalized();
        let line = self.line_mut(&path.branches)?;
        let ply = path.ply;
        if ply > line.len() {
            return None;
        }
        if ply == line.len() {
            line.moves.push(mv.to_owned());
            return Some(Path { branches: path.branches, ply: ply + 1 });
        }
        if line.moves[ply] == mv {
            return Some(Path { branches: path.branches, ply: ply + 1 });
        }
        let alternatives = line.variations.entry(ply).or_default();
        let index = match alternatives.iter().position(|v| v.moves.first().is_some_and(|m| m == mv))
        {
            Some(index) => index,
            None => {
                alternatives.push(Line::of_moves(vec![mv.to_owned()]));
                alternatives.len() - 1
            }
        };
        Some(path.entering(ply, index))
    }

    /// Keeps the first `plies` moves, and what was said, marked, drawn and branched up to them.
    pub fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.comments.retain(|&n, _| n <= plies);
        self.marks.retain(|&n, _| n <= plies);
        self.shapes.retain(|&n, _| n <= plies);
        self.variations.retain(|&i, _| i < plies);
    }

    /// Cuts the line after its first `at` moves and returns the rest as a line of its own
    /// (without the alternatives to its first move, which stay here).
    fn split_off(&mut self, at: usize) -> Line {
        fn shift<V>(map: &mut Sparse<V>, at: usize) -> Sparse<V> {
            let mut out = Sparse::new();
            out.extend(map.split_off(&(at + 1)).into_iter().map(|(n, v)| (n - at, v)));
            out
        }
        Line {
            moves: self.moves.split_off(at),
            comments: shift(&mut self.comments, at),
            marks: shift(&mut self.marks, at),
            shapes: shift(&mut self.shapes, at),
            variations: shift(&mut self.variations, at),
        }
    }

    /// Puts `tail` on the end of this line. Its alternatives to its first move are returned:
    /// they belong beside it, among the variations at the join.
    fn append(&mut self, mut tail: Line) -> Vec<Line> {
        let at = self.len();
        let first_alternatives = tail.variations.remove(&0).unwrap_or_default();
        if let Some(before) = tail.comments.remove(&0) {
            let joined = match self.comments.remove(&at) {
                Some(after) => format!("{after} {before}"),
                None => before,
            };
            self.comments.insert(at, joined);
        }
        if let Some(shapes) = tail.shapes.remove(&0) {
            self.shapes.entry(at).or_default().extend(shapes);
        }
        self.moves.append(&mut tail.moves);
        self.comments.extend(tail.comments.into_iter().map(|(n, v)| (n + at, v)));
        self.marks.extend(tail.marks.into_iter().map(|(n, v)| (n + at, v)));
        self.shapes.extend(tail.shapes.into_iter().map(|(n, v)| (n + at, v)));
        self.variations.extend(tail.variations.into_iter().map(|(n, v)| (n + at, v)));
        first_alternatives
    }

    /// Makes the variation `path` ends in the main continuation of the line it branches from
    /// (that line's moves from there become its first alternative). Returns the same position's
    /// new path; `None` when `path` is on the main line or not in the tree.
    pub fn promote(&mut self, path: &Path) -> Option<Path> {
        let path = path.clone().normalized();
        if !self.contains(&path) {
            return None;
        }
        let (&branch, outer) = path.branches.split_last()?;
        let parent = self.line_mut(outer)?;
        let mut alternatives = parent.variations.remove(&branch.at)?;
        let chosen = alternatives.remove(branch.index);
        let old_continuation = parent.split_off(branch.at);
        let mut beside = vec![old_continuation];
        beside.append(&mut alternatives);
        beside.extend(parent.append(chosen));
        beside.retain(|line| !line.is_empty());
        if !beside.is_empty() {
            parent.variations.insert(branch.at, beside);
        }
        Some(Path { branches: outer.to_vec(), ply: branch.at + path.ply })
    }

    /// Promotes the variations `path` is in until it is on the main line.
    pub fn make_main_line(&mut self, path: &Path) -> Option<Path> {
        let mut path = path.clone().normalized();
        if !self.contains(&path) {
            return None;
        }
        while !path.is_main_line() {
            path = self.promote(&path)?;
        }
        Some(path)
    }

    /// Moves the variation `path` ends in one place earlier among its siblings (`earlier`) or
    /// later. Returns the position's new path, or `None` when it can't move that way.
    pub fn reorder(&mut self, path: &Path, earlier: bool) -> Option<Path> {
        let path = path.clone().normalized();
        if !self.contains(&path) {
            return None;
        }
        let (&branch, outer) = path.branches.split_last()?;
        let siblings = self.line_mut(outer)?.variations.get_mut(&branch.at)?;
        let to = if earlier { branch.index.checked_sub(1)? } else { branch.index + 1 };
        if to >= siblings.len() {
            return None;
        }
        siblings.swap(branch.index, to);
        let mut moved = path;
        if let Some(last) = moved.branches.last_mut() {
            last.index = to;
        }
        Some(moved)
    }

    /// Deletes the move that led to `path` and everything after it (its variations too). When
    /// it was a line's main continuation and had alternatives, the first of them takes its place.
    /// Returns the position before it; `None` at the start or outside the tree.
    pub fn delete(&mut self, path: &Path) -> Option<Path> {
        let path = path.clone().normalized();
        if !self.contains(&path) || path.ply == 0 {
            return None;
        }
        if path.ply == 1
            && let Some((&branch, outer)) = path.branches.split_last()
        {
            let parent = self.line_mut(outer)?;
            let alternatives = parent.variations.get_mut(&branch.at)?;
            alternatives.remove(branch.index);
            if alternatives.is_empty() {
                parent.variations.remove(&branch.at);
            }
            return Some(Path { branches: outer.to_vec(), ply: branch.at });
        }
        let line = self.line_mut(&path.branches)?;
        let at = path.ply - 1;
        let mut alternatives = line.variations.remove(&at).unwrap_or_default();
        line.truncate(at);
        if !alternatives.is_empty() {
            let first = alternatives.remove(0);
            alternatives.extend(line.append(first));
            if !alternatives.is_empty() {
                line.variations.insert(at, alternatives);
            }
        }
        Some(Path { branches: path.branches, ply: at })
    }

    /// The comment after the move that led to `path` (at the start: before the first move).
    #[must_use]
    pub fn comment(&self, path: &Path) -> Option<&str> {
        self.line(&path.branches)?.comments.get(&path.ply).map(String::as_str)
    }

    /// Sets (or, when `text` is blank, removes) the comment after the move that led to `path`.
    /// Returns whether `path` is in the tree.
    pub fn set_comment(&mut self, path: &Path, text: &str) -> bool {
        let path = path.clone().normalized();
        if !self.contains(&path) {
            return false;
        }
        let Some(line) = self.line_mut(&path.branches) else { return false };
        let text = text.trim();
        if text.is_empty() {
            line.comments.remove(&path.ply);
        } else {
            line.comments.insert(path.ply, text.to_owned());
        }
        true
    }

    /// The marks of the move that led to `path`.
    #[must_use]
    pub fn marks(&self, path: &Path) -> &[Mark] {
        self.line(&path.branches).and_then(|l| l.marks.get(&path.ply)).map_or(&[], Vec::as_slice)
    }

    /// Toggles a mark on the move that led to `path` (see [`mark::toggle`]). Returns whether
    /// there is such a move.
    pub fn toggle_mark(&mut self, path: &Path, mark: Mark) -> bool {
        let path = path.clone().normalized();
        if !self.contains(&path) || path.ply == 0 {
            return false;
        }
        let Some(line) = self.line_mut(&path.branches) else { return false };
        let marks = line.marks.entry(path.ply).or_default();
        mark::toggle(marks, mark);
        if marks.is_empty() {
            line.marks.remove(&path.ply);
        }
        true
    }

    /// The arrows and circles drawn on the position at `path`.
    #[must_use]
    pub fn shapes(&self, path: &Path) -> &[Shape] {
        self.line(&path.branches).and_then(|l| l.shapes.get(&path.ply)).map_or(&[], Vec::as_slice)
    }

    /// Toggles a shape on the position at `path` (see [`shape::toggle`]). Returns whether
    /// `path` is in the tree.
    pub fn toggle_shape(&mut self, path: &Path, shape: Shape) -> bool {
        let path = path.clone().normalized();
        if !self.contains(&path) {
            return false;
        }
        let Some(line) = self.line_mut(&path.branches) else { return false };
        let shapes = line.shapes.entry(path.ply).or_default();
        shape::toggle(shapes, shape);
        if shapes.is_empty() {
            line.shapes.remove(&path.ply);
        }
        true
    }

    /// Removes every shape drawn on the position at `path`.
    pub fn clear_shapes(&mut self, path: &Path) {
        if let Some(line) = self.line_mut(&path.branches) {
            line.shapes.remove(&path.ply);
        }
    }

    /// Every position in the tree, in the order a move list shows them (each line's moves, a
    /// move's alternatives right after it), as paths.
    #[must_use]
    pub fn paths(&self) -> Vec<Path> {
        fn walk(line: &Line, prefix: &[Branch], out: &mut Vec<Path>) {
            for ply in 1..=line.len() {
                out.push(Path { branches: prefix.to_vec(), ply });
                for (index, variation) in
                    line.variations.get(&(ply - 1)).into_iter().flatten().enumerate()
                {
                    let mut inner = prefix.to_vec();
                    inner.push(Branch { at: ply - 1, index });
                    walk(variation, &inner, out);
                }
            }
        }
        let mut out = vec![Path::main(0)];
        walk(self, &[], &mut out);
        out
    }
}

#[cfg(test)]
mod tests;
