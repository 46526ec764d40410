//! [`Sparse`]: a small map from move numbers to notes, kept as a sorted vector.
//!
//! Why not `BTreeMap`: a game's notes are few (a comment here, a variation there), and each
//! value type of a `BTreeMap` brings its own copy of the tree's balancing code into the browser's
//! download (five note types made about 20 KB of the page's wasm). A sorted vector does the same
//! job in a fraction of the code. The API is the subset of `BTreeMap`'s that the tree uses.

/// A map from `usize` keys to values, in key order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sparse<V>(Vec<(usize, V)>);

impl<V> Default for Sparse<V> {
    fn default() -> Self {
        Sparse(Vec::new())
    }
}

impl<V> Sparse<V> {
    /// An empty map.
    #[must_use]
    pub const fn new() -> Self {
        Sparse(Vec::new())
    }

    fn find(&self, key: usize) -> Result<usize, usize> {
        self.0.binary_search_by_key(&key, |(k, _)| *k)
    }

    /// The value at `key`.
    #[must_use]
    pub fn get(&self, key: &usize) -> Option<&V> {
        self.find(*key).ok().map(|at| &self.0[at].1)
    }

    /// The value at `key`, to change.
    pub fn get_mut(&mut self, key: &usize) -> Option<&mut V> {
        self.find(*key).ok().map(|at| &mut self.0[at].1)
    }

    /// Whether there is a value at `key`.
    #[must_use]
    pub fn contains_key(&self, key: &usize) -> bool {
        self.find(*key).is_ok()
    }

    /// Puts `value` at `key`; returns the value it replaces.
    pub fn insert(&mut self, key: usize, value: V) -> Option<V> {
        match self.find(key) {
            Ok(at) => Some(std::mem::replace(&mut self.0[at].1, value)),
            Err(at) => {
                self.0.insert(at, (key, value));
                None
            }
        }
    }

    /// Takes the value at `key` out.
    pub fn remove(&mut self, key: &usize) -> Option<V> {
        self.find(*key).ok().map(|at| self.0.remove(at).1)
    }

    /// The place of `key`, to fill or change.
    pub fn entry(&mut self, key: usize) -> Entry<'_, V> {
        Entry { map: self, key }
    }

    /// The number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Keys and values in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&usize, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &usize> {
        self.0.iter().map(|(k, _)| k)
    }

    /// Values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }

    /// Keeps the entries for which `keep` says so.
    pub fn retain(&mut self, mut keep: impl FnMut(&usize, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }

    /// Takes the entries from `key` on out, as a map of their own.
    #[must_use]
    pub fn split_off(&mut self, key: &usize) -> Self {
        let at = self.find(*key).unwrap_or_else(|at| at);
        Sparse(self.0.split_off(at))
    }
}

impl<V> std::ops::Index<&usize> for Sparse<V> {
    type Output = V;
    /// # Panics
    /// When there is no value at `key`, as `BTreeMap` does.
    fn index(&self, key: &usize) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

impl<V> Extend<(usize, V)> for Sparse<V> {
    fn extend<I: IntoIterator<Item = (usize, V)>>(&mut self, items: I) {
        for (key, value) in items {
            self.insert(key, value);
        }
    }
}

impl<V> IntoIterator for Sparse<V> {
    type Item = (usize, V);
    type IntoIter = std::vec::IntoIter<(usize, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, V> IntoIterator for &'a Sparse<V> {
    type Item = (&'a usize, &'a V);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (usize, V)>, fn(&'a (usize, V)) -> (&'a usize, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        fn pair<V>((k, v): &(usize, V)) -> (&usize, &V) {
            (k, v)
        }
        self.0.iter().map(pair as fn(&'a (usize, V)) -> (&'a usize, &'a V))
    }
}

/// The place of a key in a [`Sparse`] map.
pub struct Entry<'a, V> {
    map: &'a mut Sparse<V>,
    key: usize,
}

impl<'a, V> Entry<'a, V> {
    /// The value, put there by `make` if there was none.
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let at = match self.map.find(self.key) {
            Ok(at) => at,
            Err(at) => {
                self.map.0.insert(at, (self.key, make()));
                at
            }
        };
        &mut self.map.0[at].1
    }

    /// The value, `value` if there was none.
    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    /// Changes the value if there is one.
    #[must_use]
    pub fn and_modify(self, change: impl FnOnce(&mut V)) -> Self {
        if let Some(value) = self.map.get_mut(&self.key) {
            change(value);
        }
        self
    }
}

impl<'a, V: Default> Entry<'a, V> {
    /// The value, the default if there was none.
    pub fn or_default(self) -> &'a mut V {
        self.or_insert_with(V::default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_an_ordered_map() {
        let mut map = Sparse::new();
        assert_eq!(map.insert(5, "e"), None);
        map.insert(1, "a");
        map.insert(3, "c");
        assert_eq!(map.insert(3, "C"), Some("c"));
        assert_eq!(map.keys().copied().collect::<Vec<_>>(), [1, 3, 5]);
        *map.entry(2).or_insert("b") = "B";
        let _ = map.entry(1).and_modify(|v| *v = "A").or_insert("x");
        assert_eq!(map.values().copied().collect::<Vec<_>>(), ["A", "B", "C", "e"]);
        let tail = map.split_off(&3);
        assert_eq!(tail.into_iter().collect::<Vec<_>>(), [(3, "C"), (5, "e")]);
        map.retain(|&k, _| k != 1);
        assert_eq!(map.remove(&2), Some("B"));
        assert!(map.is_empty() && !map.contains_key(&2));
        map.extend([(9, "i"), (7, "g")]);
        assert_eq!((&map).into_iter().map(|(k, _)| *k).collect::<Vec<_>>(), [7, 9]);
    }
}
