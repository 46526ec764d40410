//! Names that look alike: Unicode's confusable skeletons and mixed-script detection (UTS #39,
//! the `unicode-security` crate).
//!
//! Two names are one name when their [`name_skeleton`]s are equal: `admin` and `аdmin` (a
//! Cyrillic а), `pop` and `pοp` (a Greek ο), `modern` and `rnodern`, `pope` and `роре` (all Cyrillic). Usernames
//! are unique by skeleton (a unique column in every store), and a guest may not take a name
//! whose skeleton is an account's. A username must also be written in one script (Latin, Han,
//! Cyrillic, …; Han with kana or with Hangul counts as one, as Japanese and Korean are written;
//! digits, `_` and `-` go with any), so `Ρaypal` (a Greek Ρ) is refused even before a `Paypal`
//! exists. This keeps names in every language the app speaks (Chinese, Vietnamese, English) and
//! any other single script, where an ASCII-only rule would refuse most of the world's names.

use unicode_security::MixedScript;

/// The key under which names that look alike are one: the confusable skeleton of the name's
/// compatibility caseless form ([`qi_protocol::username_key`], which already makes `ADMIN`,
/// `ａｄｍｉｎ` and `admin` one). Folding comes first so that every form of a name has one
/// skeleton; the price is that a capital that looks like another small letter (`I` and `l`) is
/// not caught, since `I` folds to `i`.
#[must_use]
pub fn name_skeleton(name: &str) -> String {
    unicode_security::skeleton(&qi_protocol::username_key(name)).collect()
}

/// Why a username's characters mix scripts, if they do.
///
/// # Errors
/// A sentence for the person registering, naming the rule.
pub fn check_single_script(name: &str) -> Result<(), String> {
    if name.is_single_script() {
        Ok(())
    } else {
        Err("a username is written in one script (not Latin mixed with Greek or Cyrillic, \
             for instance), so that it cannot pass for another"
            .to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_share_a_skeleton() {
        for (one, other) in [
            ("admin", "аdmin"),
            ("pop", "pοp"),
            ("Paypal", "Ρaypal"),
            ("paypal", "PAYPAL"),
            ("admin", "ADMIN"),
            ("modern", "rnodern"),
            ("ann", "ＡＮＮ"),
            ("pope", "роре"),
        ] {
            assert_eq!(name_skeleton(one), name_skeleton(other), "{one} / {other}");
        }
        for (one, other) in
            [("ann", "anne"), ("张伟", "张玮"), ("Nguyễn", "Nguyen"), ("bo_b", "bob")]
        {
            assert_ne!(name_skeleton(one), name_skeleton(other), "{one} / {other}");
        }
    }

    #[test]
    fn names_in_one_script_pass_and_mixed_ones_are_refused() {
        for name in
            ["Ann", "Bo_B", "张伟", "Nguyễn_Văn_An", "山田たろう", "김민준", "Иван", "player-42"]
        {
            assert_eq!(check_single_script(name), Ok(()), "{name}");
        }
        for name in ["аdmin", "pοp", "Ρaypal", "Ivanов"] {
            assert!(check_single_script(name).is_err(), "{name}");
        }
    }
}
