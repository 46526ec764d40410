//! The player's settings: the game, each game's rule options, language, theme, clocks, who plays,
//! the computer's level, the board's labels; and their stored form (`key=value` lines in the
//! browser's storage), read back with defaults for whatever is missing or damaged.

use qi_rules::any::rules_with;
use qi_rules::{GameKind, Side};

use qi_i18n::text::Lang;
use qi_play::decimal::decimal;
use qi_rules::any::default_rules;

/// Light or dark colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Theme {
    /// Light.
    #[default]
    Light,
    /// Dark.
    Dark,
}

/// A hot-seat clock setting: minutes for the game and seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockConfig {
    /// Each side's time at the start, in seconds.
    pub base_secs: u32,
    /// Seconds added after each move.
    pub increment_secs: u32,
}

impl ClockConfig {
    /// The choices the clock picker offers.
    pub const PRESETS: [ClockConfig; 5] = [
        ClockConfig { base_secs: 60, increment_secs: 0 },
        ClockConfig { base_secs: 180, increment_secs: 2 },
        ClockConfig { base_secs: 300, increment_secs: 3 },
        ClockConfig { base_secs: 600, increment_secs: 5 },
        ClockConfig { base_secs: 1800, increment_secs: 20 },
    ];

    /// A clock of the player's own: `minutes` each (1 to 180) and `increment` seconds a move
    /// (0 to 60); `None` outside those bounds.
    #[must_use]
    pub fn custom(minutes: u32, increment: u32) -> Option<ClockConfig> {
        ((1..=180).contains(&minutes) && increment <= 60)
            .then_some(ClockConfig { base_secs: minutes * 60, increment_secs: increment })
    }

    /// The custom clock offered first: 15 minutes and 10 seconds a move.
    pub const FIRST_CUSTOM: ClockConfig = ClockConfig { base_secs: 900, increment_secs: 10 };

    /// Written as `5+3` (minutes + seconds), as game sites write it.
    #[must_use]
    pub fn label(self) -> String {
        // Minutes to two decimals: 30 s is "0.5", 15 s "0.25".
        let minutes = decimal(i64::from(self.base_secs) * 100 / 60, 2);
        format!("{minutes}+{}", self.increment_secs)
    }
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Two people on one device.
    #[default]
    HotSeat,
    /// A person against the computer; the person plays `human`.
    VsComputer {
        /// The person's side.
        human: Side,
    },
    /// The computer against itself, to watch.
    Watch,
}

/// The sounds' volume until the player chooses another (0 to 100).
pub const DEFAULT_VOLUME: u8 = 60;

/// The volume choices of the options panel: off, quiet, normal, loud.
pub const VOLUME_CHOICES: [u8; 4] = [0, 30, 60, 100];

/// How long the computer waits between its moves when it plays itself, in milliseconds.
pub const WATCH_DELAYS_MS: [u32; 3] = [1500, 600, 100];

/// The least time the computer takes to answer a person at `level`, in milliseconds: the
/// lowest levels find their move in a few milliseconds, and a reply that lands together with
/// the person's own move feels like no reply at all. Hints and higher levels are not held back.
#[must_use]
pub const fn least_answer_ms(level: u8) -> u32 {
    match level {
        0..=1 => 450,
        2 => 350,
        3 => 250,
        _ => 0,
    }
}

/// The player's choices, remembered across visits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game being played.
    pub kind: GameKind,
    /// Each game's rule options (`key=value,...`), by [`GameKind::ALL`] order.
    pub rules: [String; 4],
    /// The interface language.
    pub lang: Lang,
    /// The colour theme.
    pub theme: Theme,
    /// Hot-seat clocks, off when `None`.
    pub clock: Option<ClockConfig>,
    /// Who plays.
    pub mode: Mode,
    /// The computer's level, 1 to 6.
    pub level: u8,
    /// The pause between moves when the computer plays itself (an index of [`WATCH_DELAYS_MS`]).
    pub watch_speed: usize,
    /// Xiangqi boards labelled with the traditional file numbers (一…九, 1…9) rather than
    /// letters and rank numbers.
    pub file_numbers: bool,
    /// How loud the sounds are, 0 (silent) to 100.
    pub volume: u8,
    /// Xiangqi and banqi pieces as symbols (a king, a rook...) instead of Chinese characters.
    pub piece_symbols: bool,
    /// Gomoku stones show their move numbers.
    pub stone_numbers: bool,
    /// A gomoku tap first shows the stone (a ghost), and a second tap on it places it: on a
    /// phone, a finger is wider than the points are apart.
    pub confirm_stones: bool,
    /// The boards in their second colour set (slate rather than wood).
    pub slate_boards: bool,
    /// The board's size on a wide screen, in percent of the largest that fits (60 to 100).
    pub board_scale: u8,
    /// The screen-reader mode: a text field for moves and commands that read the board
    /// (`sr=1` in a link turns it on).
    pub screen_reader: bool,
    /// How many of the device's cores the computer's full-strength search and the analysis
    /// use, 1 to [`MOST_ENGINE_THREADS`]; 0 for as many as it has (up to that). One by default:
    /// a search split across workers was not measured stronger (see docs/engines.md, "Several
    /// cores").
    pub engine_threads: u8,
}

/// The most cores the engine is offered (see `MOST_THREADS` in the app's `src/worker.rs`).
pub const MOST_ENGINE_THREADS: u8 = 4;

impl Settings {
    /// Defaults for a browser whose language is `lang`.
    #[must_use]
    pub fn new(lang: Lang) -> Settings {
        Settings {
            kind: GameKind::Chess,
            rules: GameKind::ALL.map(default_rules),
            lang,
            theme: Theme::Light,
            clock: None,
            mode: Mode::HotSeat,
            level: 2,
            watch_speed: 1,
            file_numbers: true,
            volume: DEFAULT_VOLUME,
            piece_symbols: false,
            stone_numbers: false,
            screen_reader: false,
            confirm_stones: false,
            slate_boards: false,
            board_scale: 100,
            engine_threads: 1,
        }
    }

    /// Whether the computer plays `side`.
    #[must_use]
    pub fn computer_plays(&self, side: Side) -> bool {
        match self.mode {
            Mode::HotSeat => false,
            Mode::VsComputer { human } => human != side,
            Mode::Watch => true,
        }
    }

    /// The rule options of `kind`.
    #[must_use]
    pub fn rules_of(&self, kind: GameKind) -> &str {
        &self.rules[kind_index(kind)]
    }

    /// Makes one of the choices a game starts with. Returns whether it was taken: a rule value
    /// the game does not have changes nothing; a level or speed out of range is brought into it.
    pub fn choose(&mut self, choice: SetupChoice) -> bool {
        match choice {
            SetupChoice::Game(kind) => self.kind = kind,
            SetupChoice::Opponent(mode) => self.mode = mode,
            SetupChoice::Level(level) => self.level = level.clamp(1, 6),
            SetupChoice::Speed(speed) => self.watch_speed = speed.min(WATCH_DELAYS_MS.len() - 1),
            SetupChoice::Clock(clock) => self.clock = clock,
            SetupChoice::Rule { key, value } => {
                let kind = self.kind;
                let Ok(list) = rules_with(kind, self.rules_of(kind), &key, &value) else {
                    return false;
                };
                self.rules[kind_index(kind)] = list;
            }
        }
        true
    }

    /// The choices of `draft` a game starts with (the game, who plays, level, speed, clock and
    /// the game's rules), the rest of these settings (language, look, sound) unchanged.
    pub fn take_setup(&mut self, draft: &Settings) {
        self.kind = draft.kind;
        self.mode = draft.mode;
        self.level = draft.level.clamp(1, 6);
        self.watch_speed = draft.watch_speed.min(WATCH_DELAYS_MS.len() - 1);
        self.clock = draft.clock;
        let index = kind_index(draft.kind);
        self.rules[index] = draft.rules[index].clone();
    }
}

/// A change to the settings that starts no new game: the settings slice's own actions (the
/// page's reducer hands them to [`Settings::apply`]; the changes that start a game are the
/// page's, as they change the game too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsAction {
    /// The language.
    Language(Lang),
    /// The theme.
    Theme(Theme),
    /// Label xiangqi boards with file numbers (`true`) or letters and rank numbers.
    FileNumbers(bool),
    /// The sounds' volume, 0 (off) to 100.
    Volume(u8),
    /// Xiangqi and banqi pieces as symbols (`true`) or characters.
    PieceSymbols(bool),
    /// Gomoku stones with (`true`) or without their move numbers.
    StoneNumbers(bool),
    /// The screen-reader mode on or off.
    ScreenReader(bool),
    /// Gomoku stones placed by a second tap on the stone the first tap showed (`true`).
    ConfirmStones(bool),
    /// The boards' second colour set (`true`: slate) or the first (wood).
    SlateBoards(bool),
    /// The board's size on a wide screen, in percent (kept within [`BOARD_SCALES`]).
    BoardScale(u8),
    /// How many cores the engine uses (0: automatic; at most [`MOST_ENGINE_THREADS`]).
    EngineThreads(u8),
    /// The computer's level (kept within 1 to 6).
    Level(u8),
    /// The pause between moves when the computer plays itself (an index of
    /// [`WATCH_DELAYS_MS`]).
    WatchSpeed(usize),
}

impl Settings {
    /// Applies one change, each value brought into its range (the settings slice's reducer).
    pub fn apply(&mut self, action: SettingsAction) {
        match action {
            SettingsAction::Language(lang) => self.lang = lang,
            SettingsAction::Theme(theme) => self.theme = theme,
            SettingsAction::FileNumbers(on) => self.file_numbers = on,
            SettingsAction::Volume(volume) => self.volume = volume.min(100),
            SettingsAction::PieceSymbols(on) => self.piece_symbols = on,
            SettingsAction::StoneNumbers(on) => self.stone_numbers = on,
            SettingsAction::ScreenReader(on) => self.screen_reader = on,
            SettingsAction::ConfirmStones(on) => self.confirm_stones = on,
            SettingsAction::SlateBoards(on) => self.slate_boards = on,
            SettingsAction::BoardScale(scale) => {
                self.board_scale = scale.clamp(BOARD_SCALES.0, BOARD_SCALES.1);
            }
            SettingsAction::EngineThreads(threads) => {
                self.engine_threads = threads.min(MOST_ENGINE_THREADS);
            }
            SettingsAction::Level(level) => {
                self.choose(SetupChoice::Level(level));
            }
            SettingsAction::WatchSpeed(speed) => {
                self.choose(SetupChoice::Speed(speed));
            }
        }
    }
}

/// Below this much time left (ms), a clock of `base_secs` runs low (a sound warns): ten
/// seconds, or a fifth of a very short clock.
#[must_use]
pub fn low_time_ms(base_secs: u32) -> f64 {
    (f64::from(base_secs) * 1000.0 / 5.0).min(10_000.0)
}

/// The board size setting's range, in percent.
pub const BOARD_SCALES: (u8, u8) = (60, 100);

/// One of the choices a game starts with: what the new-game dialog and the side panel change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupChoice {
    /// Which game.
    Game(GameKind),
    /// Who plays.
    Opponent(Mode),
    /// The computer's level (1 to 6).
    Level(u8),
    /// The pause between moves when the computer plays itself.
    Speed(usize),
    /// The clock, or none.
    Clock(Option<ClockConfig>),
    /// A rule option of the game.
    Rule {
        /// The option.
        key: String,
        /// Its value.
        value: String,
    },
}

impl Settings {
    /// The settings as text for storage: one `key=value` a line.
    #[must_use]
    pub fn to_storage(&self) -> String {
        let mut lines = vec![
            format!("game={}", self.kind.name()),
            format!("lang={}", self.lang.tag()),
            format!("theme={}", if self.theme == Theme::Dark { "dark" } else { "light" }),
            match self.clock {
                Some(c) => format!("clock={}+{}", c.base_secs, c.increment_secs),
                None => "clock=off".to_owned(),
            },
        ];
        lines.push(format!(
            "mode={}",
            match self.mode {
                Mode::HotSeat => "hotseat",
                Mode::VsComputer { human: Side::First } => "computer-second",
                Mode::VsComputer { human: Side::Second } => "computer-first",
                Mode::Watch => "watch",
            }
        ));
        lines.push(format!("level={}", self.level));
        lines.push(format!("speed={}", self.watch_speed));
        lines.push(format!("files={}", if self.file_numbers { "numbers" } else { "letters" }));
        lines.push(format!("volume={}", self.volume));
        lines.push(format!("pieces={}", if self.piece_symbols { "symbols" } else { "characters" }));
        lines.push(format!("numbers={}", if self.stone_numbers { "on" } else { "off" }));
        lines.push(format!("sr={}", if self.screen_reader { "on" } else { "off" }));
        lines.push(format!("confirm={}", if self.confirm_stones { "on" } else { "off" }));
        lines.push(format!("boards={}", if self.slate_boards { "slate" } else { "wood" }));
        lines.push(format!("board-size={}", self.board_scale));
        lines.push(match self.engine_threads {
            0 => "threads=auto".to_owned(),
            n => format!("threads={n}"),
        });
        for kind in GameKind::ALL {
            lines.push(format!("rules.{}={}", kind.name(), self.rules_of(kind)));
        }
        lines.join("\n")
    }

    /// Settings read back from storage over the defaults for `lang`. Storage is outside input:
    /// anything unreadable keeps its default.
    #[must_use]
    pub fn from_storage(text: &str, lang: Lang) -> Settings {
        let mut settings = Settings::new(lang);
        for (key, value) in text.lines().filter_map(|line| line.split_once('=')) {
            match key {
                "game" => {
                    if let Ok((kind, _)) = qi_rules::any::parse_variant(value) {
                        settings.kind = kind;
                    }
                }
                "lang" => settings.lang = Lang::from_tag(value),
                "files" => settings.file_numbers = value != "letters",
                "pieces" => settings.piece_symbols = value == "symbols",
                "numbers" => settings.stone_numbers = value == "on",
                "sr" => settings.screen_reader = value == "on",
                "confirm" => settings.confirm_stones = value == "on",
                "boards" => settings.slate_boards = value == "slate",
                "threads" => match value.parse::<u8>() {
                    Ok(threads @ 1..=MOST_ENGINE_THREADS) => settings.engine_threads = threads,
                    _ if value == "auto" => settings.engine_threads = 0,
                    _ => {}
                },
                "board-size" => {
                    if let Ok(scale) = value.parse::<u8>() {
                        settings.board_scale = scale.clamp(BOARD_SCALES.0, BOARD_SCALES.1);
                    }
                }
                "volume" => {
                    if let Ok(volume @ 0..=100) = value.parse::<u8>() {
                        settings.volume = volume;
                    }
                }
                "theme" => {
                    settings.theme = if value == "dark" { Theme::Dark } else { Theme::Light }
                }
                "clock" => settings.clock = parse_clock(value),
                "mode" => {
                    settings.mode = match value {
                        "computer-second" => Mode::VsComputer { human: Side::First },
                        "computer-first" => Mode::VsComputer { human: Side::Second },
                        "watch" => Mode::Watch,
                        _ => Mode::HotSeat,
                    };
                }
                "level" => {
                    if let Ok(level @ 1..=6) = value.parse::<u8>() {
                        settings.level = level;
                    }
                }
                "speed" => {
                    if let Ok(speed) = value.parse::<usize>()
                        && speed < WATCH_DELAYS_MS.len()
                    {
                        settings.watch_speed = speed;
                    }
                }
                _ => {
                    let Some(name) = key.strip_prefix("rules.") else { continue };
                    let Ok((kind, _)) = qi_rules::any::parse_variant(name) else { continue };
                    // Re-reading through the rules checks every option; a bad list is dropped.
                    if let Some((first_key, first_value)) =
                        value.split(',').next().and_then(|p| p.split_once('='))
                        && let Ok(list) = rules_with(kind, value, first_key, first_value)
                    {
                        settings.rules[kind_index(kind)] = list;
                    }
                }
            }
        }
        settings
    }
}

fn parse_clock(text: &str) -> Option<ClockConfig> {
    let (base, increment) = text.split_once('+')?;
    let config =
        ClockConfig { base_secs: base.parse().ok()?, increment_secs: increment.parse().ok()? };
    // Storage is outside input: a preset, or a custom clock within its bounds.
    let custom = config.base_secs.is_multiple_of(60)
        && ClockConfig::custom(config.base_secs / 60, config.increment_secs).is_some();
    (ClockConfig::PRESETS.contains(&config) || custom).then_some(config)
}

/// The index of a game in [`GameKind::ALL`].
#[must_use]
pub fn kind_index(kind: GameKind) -> usize {
    GameKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the fuzz target `settings_text` checks for any text, here for a kept one and a
    /// damaged one: read, written, read again gives the same settings.
    #[test]
    fn storage_reads_back_to_the_same_settings() {
        let kept = "game=xiangqi\nclock=900+10\nmode=computer-first\nlevel=5\nthreads=auto\n\
            rules.banqi=chain=on,capture_hidden=on\nboard-size=80";
        let read = Settings::from_storage(kept, Lang::En);
        assert_eq!(read.kind, GameKind::Xiangqi);
        assert_eq!(read.clock, Some(ClockConfig::FIRST_CUSTOM));
        assert_eq!(read.mode, Mode::VsComputer { human: Side::Second });
        assert_eq!((read.level, read.engine_threads, read.board_scale), (5, 0, 80));
        assert!(read.rules_of(GameKind::Banqi).contains("chain=true"), "{read:?}");
        let damaged = "level=9\nvolume=200\nclock=61+5\nspeed=9\nthreads=7\nboard-size=7\n\
            rules.banqi=chain=on,ranks=nonsense\nrules.=x\n=\nlang";
        let defaults = Settings::new(Lang::En);
        let read_damaged = Settings::from_storage(damaged, Lang::En);
        assert_eq!(read_damaged.level, defaults.level);
        assert_eq!(read_damaged.volume, defaults.volume);
        assert_eq!(read_damaged.clock, None);
        assert_eq!(read_damaged.engine_threads, defaults.engine_threads);
        assert_eq!(read_damaged.board_scale, BOARD_SCALES.0, "clamped, not dropped");
        assert_eq!(read_damaged.rules, defaults.rules, "a bad rule list is dropped whole");
        for settings in [read, read_damaged] {
            let written = settings.to_storage();
            assert_eq!(Settings::from_storage(&written, Lang::Zh), settings, "{written}");
        }
    }
}
