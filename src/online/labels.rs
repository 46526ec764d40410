//! How the online pages name a game: its variant, clock and rule options, as the lobby, the
//! game page, the profile and the account box show them.

use qi_protocol::Variant;
use qi_protocol::{ClockSpec, GameSpec};
use qi_rules::GameKind;

use super::texts::{Words, say};
use crate::components::setup_fields::{option_label, value_label};
use qi_i18n::text::{Lang, Text, game_name, t};
use qi_play::record::default_rules;

/// The `key=value` pairs of a rule list.
pub fn rule_pairs(list: &str) -> impl Iterator<Item = (&str, &str)> {
    list.split(',').filter_map(|pair| pair.split_once('=')).map(|(k, v)| (k.trim(), v.trim()))
}

/// The options of `list` (a `kind` game's rules) that differ from the defaults, as a list;
/// chess's `variant` is left out (the game's name says it: `chess960`).
#[must_use]
pub fn changed_rules(kind: GameKind, list: &str) -> String {
    let defaults = default_rules(kind);
    rule_pairs(list)
        .filter(|&(key, value)| {
            key != "variant" && !rule_pairs(&defaults).any(|pair| pair == (key, value))
        })
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A game's rule options that differ from the defaults, worded: `Rule set: Renju`; empty when
/// it plays by the defaults.
#[must_use]
pub fn rules_label(lang: Lang, spec: &GameSpec) -> String {
    rule_pairs(&changed_rules(spec.variant().kind(), &spec.rules.to_list()))
        .map(|(key, value)| format!("{}: {}", option_label(lang, key), value_label(lang, value)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A clock as game sites write it (`5+3`), or "No clock".
#[must_use]
pub fn clock_label(lang: Lang, clock: Option<ClockSpec>) -> String {
    match clock {
        None => t(lang, Text::NoClock).to_owned(),
        Some(clock) => {
            let minutes = f64::from(clock.base_secs) / 60.0;
            format!("{minutes}+{}", clock.increment_secs)
        }
    }
}

/// A variant's name as the page shows it: the game's name in `lang`, `Chess960` apart.
#[must_use]
pub fn variant_name(lang: Lang, variant: Variant) -> String {
    match variant {
        Variant::Chess960 => "Chess960".to_owned(),
        variant => game_name(lang, variant.kind()).to_owned(),
    }
}

/// A variant named in text (a rating's kind, as the server stores it) as the page shows it; an
/// unknown one as it is.
#[must_use]
pub fn variant_label(lang: Lang, variant: &str) -> String {
    Variant::parse(variant).map_or_else(|_| variant.to_owned(), |v| variant_name(lang, v))
}

/// A game as the lobby and the game page name it: `Chess · 5+3`, then the rule options that are
/// not the defaults (`Gomoku · 5+3 · Rule set: Renju`), then `Rated` for a rated game.
#[must_use]
pub fn spec_label(lang: Lang, spec: &GameSpec) -> String {
    let game = variant_name(lang, spec.variant());
    let mut label = format!("{game} · {}", clock_label(lang, spec.clock));
    let rules = rules_label(lang, spec);
    if !rules.is_empty() {
        label = format!("{label} · {rules}");
    }
    if spec.rated {
        label = format!("{label} · {}", say(lang, Words::Rated));
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_protocol::AnyRules;

    #[test]
    fn games_are_labelled_with_their_clock() {
        let spec = GameSpec::of(Variant::Xiangqi);
        assert_eq!(spec_label(Lang::Zh, &spec), "中国象棋 · 不计时");
        let clock = Some(ClockSpec { base_secs: 90, increment_secs: 1 });
        let spec = GameSpec { clock, ..GameSpec::of(Variant::Chess960) };
        assert_eq!(spec_label(Lang::En, &spec), "Chess960 · 1.5+1");
        let rules = AnyRules::parse(Variant::Gomoku, "rule=renju").unwrap();
        let spec = GameSpec { rules, ..GameSpec::of(Variant::Gomoku) };
        assert_eq!(spec_label(Lang::En, &spec), "Gomoku · No clock · Rule set: Renju");
        let rules = AnyRules::parse(Variant::Gomoku, &default_rules(GameKind::Gomoku)).unwrap();
        let spec = GameSpec { rules, ..GameSpec::of(Variant::Gomoku) };
        assert_eq!(spec_label(Lang::En, &spec), "Gomoku · No clock", "the defaults go unsaid");
        let spec = GameSpec { rated: true, ..spec };
        assert_eq!(spec_label(Lang::En, &spec), "Gomoku · No clock · Rated");
        assert_eq!(variant_label(Lang::Vi, "chess960"), "Chess960");
        assert_eq!(variant_label(Lang::En, "go"), "go");
    }
}
