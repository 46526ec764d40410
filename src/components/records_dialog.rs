//! Records in and out: paste or choose a file to import (PGN, FEN, move lists, the banqi
//! record), copy or download the game in any of its game's formats.

use std::rc::Rc;

use qi_i18n::fold::fold_case;
use qi_rules::GameKind;
use yew::prelude::*;

use super::dialog::Dialog;
use super::share::CopyField;
use crate::state::Action;
use crate::web;
use qi_i18n::text::{Lang, Text, fill, t};
use qi_play::records::{self, Format};
use qi_tasks::tasks::{GameEntry, TaskReply, TaskRequest};
use qi_tasks::think::{WorkerReply, WorkerRequest};

/// Properties of [`RecordsDialog`].
#[derive(Properties, PartialEq)]
pub struct RecordsDialogProps {
    /// The game shown.
    pub game: super::share::ShownGame,
    /// Where actions go (an import opens the game).
    pub dispatch: Callback<Action>,
    /// Closes the dialog.
    pub close: Callback<()>,
}

/// What the last import attempt said.
#[derive(Clone, Debug, PartialEq)]
enum ImportOutcome {
    /// Read: this many moves, and what was skipped on the way (worded).
    Read(usize, Vec<String>),
    /// Refused (perhaps with the moves before the problem opened), with the worded reason.
    Failed(String),
    /// Being read.
    Reading,
}

/// What the dialog says of a file's encoding: nothing for clean UTF-8; else the encoding it was
/// read in, and where bytes could not be read.
fn encoding_note(
    lang: Lang,
    encoding: &str,
    replaced: usize,
    first_bad: Option<(usize, usize)>,
) -> Option<String> {
    let mut note = Vec::new();
    if encoding != "UTF-8" {
        note.push(fill(t(lang, Text::ReadAsEncoding), "encoding", encoding));
    }
    if let Some((line, column)) = first_bad {
        let values = [
            ("n", replaced.to_string()),
            ("line", line.to_string()),
            ("column", column.to_string()),
        ];
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        note.push(qi_i18n::text::fill_all(t(lang, Text::UnreadableBytes), &values));
    }
    (!note.is_empty()).then(|| note.join(" "))
}

/// A format's label in the picker, e.g. "PGN", "FEN", "h8i9j10…".
fn format_label(lang: Lang, format: Format) -> &'static str {
    match format {
        Format::ChessPgn | Format::XiangqiPgn | Format::BanqiPgn | Format::GomokuPgn => "PGN",
        Format::XiangqiChinese => "PGN (中文)",
        Format::XiangqiIccs => "PGN (ICCS)",
        Format::XiangqiWxfFile => "WXF (PlayOK)",
        Format::GomokuPsq => "PSQ (Gomocup)",
        Format::ChessFen | Format::XiangqiFen => "FEN",
        Format::BanqiPosition | Format::GomokuPosition => t(lang, Text::PositionFormat),
        Format::GomokuMoves => "h8i9j10…",
    }
}

/// A file of several games, waiting for the player's pick (the game on the board stays until
/// then).
#[derive(Clone, Debug, PartialEq)]
struct Picker {
    /// The file's text.
    text: Rc<str>,
    /// Its games.
    games: Rc<Vec<GameEntry>>,
}

/// What reading a record needs: the worker, the player's language and game, where the game
/// goes, and what the dialog shows meanwhile.
#[derive(Clone)]
struct Importer {
    lang: Lang,
    kind: GameKind,
    dispatch: Callback<Action>,
    outcome: UseStateHandle<Option<ImportOutcome>>,
    picker: UseStateHandle<Option<Picker>>,
}

impl Importer {
    /// Reads `text`: a file of several games offers them to pick from; one game opens.
    fn read(&self, text: String) {
        self.picker.set(None);
        self.outcome.set(Some(ImportOutcome::Reading));
        let this = self.clone();
        yew::platform::spawn_local(async move {
            let request = TaskRequest::ListGames { text: text.clone() };
            let games = match crate::worker::run(WorkerRequest::Task(request))
                .await
                .and_then(WorkerReply::task)
            {
                Some(TaskReply::Games { games }) => games,
                _ => Vec::new(),
            };
            if games.len() > 1 {
                this.outcome.set(None);
                this.picker.set(Some(Picker { text: text.into(), games: Rc::new(games) }));
            } else {
                this.import(text);
            }
        });
    }

    /// Imports one game's `text` and opens it (or what could be read of it).
    fn import(&self, text: String) {
        self.outcome.set(Some(ImportOutcome::Reading));
        let this = self.clone();
        yew::platform::spawn_local(async move {
            let request = TaskRequest::Import { lang: this.lang, hint: this.kind, text };
            let reply =
                crate::worker::run(WorkerRequest::Task(request)).await.and_then(WorkerReply::task);
            let open = |record| Action::Open { record, bottom: None, at: None, notice: None };
            match reply {
                Some(TaskReply::Imported { record, warnings }) => {
                    this.outcome.set(Some(ImportOutcome::Read(record.moves.len(), warnings)));
                    this.dispatch.emit(open(record));
                }
                Some(TaskReply::Failed { message, partial }) => {
                    if let Some(record) = partial {
                        this.dispatch.emit(open(record));
                    }
                    this.outcome.set(Some(ImportOutcome::Failed(message)));
                }
                _ => this.outcome.set(None),
            }
        });
    }
}

/// The encodings a download may be written in: their labels and names. GBK and Big5 are for
/// the older xiangqi programs (XQStudio, ElephantEye's tools), UTF-16 for some Windows editors.
const EXPORT_ENCODINGS: [(&str, &str); 4] =
    [("utf-8", "UTF-8"), ("gbk", "GBK"), ("big5", "Big5"), ("utf-16le", "UTF-16")];

/// The most games the picker lists at once (a search narrows the rest).
const PICKER_SHOWN: usize = 200;

/// A game of a file as the picker shows it: its number, players, result, date and event.
fn game_label(index: usize, game: &GameEntry) -> String {
    let first = game.tag("White").or(game.tag("Red"));
    let second = game.tag("Black");
    let mut parts = Vec::new();
    if first.is_some() || second.is_some() {
        parts.push(format!("{} – {}", first.unwrap_or("?"), second.unwrap_or("?")));
    }
    parts.extend(
        ["Result", "Date", "Event"]
            .into_iter()
            .filter_map(|tag| game.tag(tag))
            .filter(|value| *value != "*")
            .map(str::to_owned),
    );
    format!("{}. {}", index + 1, parts.join(" · "))
}

/// Whether `game` matches the search `query` (any of its tags holds it, ignoring case).
fn matches_search(game: &GameEntry, query: &str) -> bool {
    let query = fold_case(query.trim());
    query.is_empty() || game.tags.iter().any(|(_, value)| fold_case(value).contains(&query))
}

/// The import and export dialog.
#[function_component(RecordsDialog)]
pub fn records_dialog(props: &RecordsDialogProps) -> Html {
    let state = &props.game;
    let lang: Lang = state.lang;
    let kind = state.record.kind;
    let formats = Format::for_game(kind);
    let format = use_state(|| formats[0]);
    let format_now = if formats.contains(&*format) { *format } else { formats[0] };
    let pasted = use_state(String::new);
    let outcome = use_state(|| None::<ImportOutcome>);
    // The encoding a download is written in (UTF-8 unless the player picks an older one).
    let encoding = use_state(|| "utf-8".to_owned());
    // What the last download's encoding could not hold, when something.
    let lost = use_state(|| None::<String>);
    // The encoding a chosen file was read in, when worth saying.
    let read_as = use_state(|| None::<String>);
    // A file of several games to pick from, and the search over them.
    let picker = use_state(|| None::<Picker>);
    let search = use_state(String::new);
    let exported = use_export(&state.record, format_now);

    let on_input = {
        let pasted = pasted.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(area) = event.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                pasted.set(area.value());
            }
        })
    };
    let importer = Importer {
        lang,
        kind,
        dispatch: props.dispatch.clone(),
        outcome: outcome.clone(),
        picker: picker.clone(),
    };
    let on_import = {
        let (pasted, importer) = (pasted.clone(), importer.clone());
        let read_as = read_as.clone();
        Callback::from(move |_: MouseEvent| {
            read_as.set(None);
            importer.read((*pasted).clone());
        })
    };
    let on_file = on_file(lang, &importer, &pasted, &read_as);
    let on_format = {
        let format = format.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>()
                && let Some(picked) = Format::from_name(&select.value())
            {
                format.set(picked);
            }
        })
    };
    let on_encoding = {
        let encoding = encoding.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() {
                encoding.set(select.value());
            }
        })
    };
    let on_download =
        on_download(lang, kind, format_now, exported.clone(), (*encoding).clone(), &lost);
    let on_close = {
        let close = props.close.clone();
        Callback::from(move |_: MouseEvent| close.emit(()))
    };
    let message = outcome.as_ref().map(|outcome| import_message(lang, outcome));
    let read_as_note = (*read_as).clone().map(|note| {
        html! { <p class="record-encoding" data-testid="import-encoding">{ note }</p> }
    });
    let picker_view =
        (*picker).as_ref().map(|picker| picker_view(lang, picker, &search, &importer));
    let options = formats.iter().map(|&f| {
        html! { <option value={f.name()} selected={f == format_now}>{ format_label(lang, f) }</option> }
    });
    html! {
        <Dialog class={classes!("dialog", "wide", "records")} label={t(lang, Text::Records)}
                on_escape={props.close.clone()}>
                <h2>{ t(lang, Text::Records) }</h2>
                <h3>{ t(lang, Text::Import) }</h3>
                <label class="copy-field">
                    <span>{ t(lang, Text::PasteRecord) }</span>
                    <textarea rows="5" data-testid="import-text" value={(*pasted).clone()} oninput={on_input} />
                </label>
                <div class="record-actions">
                    <button type="button" data-action="import" onclick={on_import}>{ t(lang, Text::Import) }</button>
                    <input type="file" data-testid="import-file" aria-label={t(lang, Text::ImportFile)} accept=".pgn,.fen,.txt,.psq,.wxf,.ubb,.htm,.html,text/plain" onchange={on_file} />
                </div>
                { read_as_note.unwrap_or_default() }
                { picker_view.unwrap_or_default() }
                { message.unwrap_or_default() }
                <h3>{ t(lang, Text::Export) }</h3>
                <label class="format">
                    { t(lang, Text::Format) }
                    <select data-testid="export-format" onchange={on_format}>{ for options }</select>
                </label>
                <CopyField {lang} label={Text::Export} value={exported} testid="export-text" multiline=true />
                <div class="record-actions">
                    <button type="button" data-action="download" onclick={on_download}>{ t(lang, Text::Download) }</button>
                    <label class="format">
                        { t(lang, Text::FileEncoding) }
                        <select data-testid="export-encoding" onchange={on_encoding}>
                            { for EXPORT_ENCODINGS.iter().map(|&(label, name)| html! {
                                <option value={label} selected={*encoding == label}>{ name }</option>
                            }) }
                        </select>
                    </label>
                </div>
                if let Some(note) = (*lost).clone() {
                    <p class="record-encoding" data-testid="export-unmappable">{ note }</p>
                }
                <button type="button" class="secondary" data-action="close-dialog" onclick={on_close}>{ t(lang, Text::Close) }</button>
        </Dialog>
    }
}

/// The export of `record` in `format`, written in the worker again whenever either changes.
#[hook]
fn use_export(record: &Rc<qi_play::record::GameRecord>, format: Format) -> String {
    let exported = use_state(String::new);
    {
        let exported = exported.clone();
        use_effect_with((record.clone(), format), move |(record, format)| {
            let request = TaskRequest::Export { record: (**record).clone(), format: *format };
            yew::platform::spawn_local(async move {
                if let Some(TaskReply::Exported { text }) =
                    crate::worker::run(WorkerRequest::Task(request))
                        .await
                        .and_then(WorkerReply::task)
                {
                    exported.set(text);
                }
            });
        });
    }

    (*exported).clone()
}

/// A chosen file: read in the worker (in whatever encoding it came, said when not UTF-8), put
/// in the text box when small enough, and imported.
fn on_file(
    lang: Lang,
    importer: &Importer,
    pasted: &UseStateHandle<String>,
    read_as: &UseStateHandle<Option<String>>,
) -> Callback<Event> {
    let (importer, pasted, read_as) = (importer.clone(), pasted.clone(), read_as.clone());
    Callback::from(move |event: Event| {
        let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
        let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
        // A file too big to read: let the reader say so, without loading it all.
        let too_big = file.size() > records::MAX_FILE as f64;
        let (pasted, importer) = (pasted.clone(), importer.clone());
        let read_as = read_as.clone();
        yew::platform::spawn_local(async move {
            let text = if too_big {
                read_as.set(None);
                String::new()
            } else {
                // In whatever encoding it came (GBK, Big5, UTF-16 ...), said when not UTF-8.
                // Read in the worker, which has the encodings' tables.
                let bytes = web::read_file(file).await.unwrap_or_default();
                let request = WorkerRequest::Task(TaskRequest::Decode { bytes });
                match crate::worker::run(request).await.and_then(WorkerReply::task) {
                    Some(TaskReply::Decoded { text, encoding, replaced, first_bad }) => {
                        read_as.set(encoding_note(lang, &encoding, replaced, first_bad));
                        text
                    }
                    _ => {
                        read_as.set(None);
                        String::new()
                    }
                }
            };
            // A file of many games is not put in the text box (it would only slow the page).
            if text.len() <= records::MAX_INPUT {
                pasted.set(text.clone());
            }
            if too_big {
                importer.import("x".repeat(records::MAX_INPUT + 1));
            } else {
                importer.read(text);
            }
        });
    })
}

/// The download button: the export in UTF-8 at once, in another encoding through the worker
/// (what that encoding lacks is said under the button).
fn on_download(
    lang: Lang,
    kind: GameKind,
    format_now: Format,
    text: String,
    encoding: String,
    lost: &UseStateHandle<Option<String>>,
) -> Callback<MouseEvent> {
    let name = format!("qi-{}.{}", kind.name(), format_now.extension());
    let lost = lost.clone();
    Callback::from(move |_: MouseEvent| {
        let mime = format_now.mime_type();
        lost.set(None);
        if encoding == "utf-8" {
            web::download(&name, mime, &text);
            return;
        }
        // Other encodings are written in the worker, which has their tables; what one
        // lacks is said under the button.
        let request = TaskRequest::Encode { text: text.clone(), encoding: encoding.clone() };
        let (name, lost) = (name.clone(), lost.clone());
        let label =
            EXPORT_ENCODINGS.iter().find(|(l, _)| *l == encoding).map_or("", |(_, name)| *name);
        yew::platform::spawn_local(async move {
            if let Some(TaskReply::Encoded { bytes, unmappable }) =
                crate::worker::run(WorkerRequest::Task(request)).await.and_then(WorkerReply::task)
            {
                web::download_bytes(&name, mime, &bytes);
                let values = [("n", unmappable.to_string()), ("encoding", label.to_owned())];
                let values: Vec<(&str, &str)> =
                    values.iter().map(|(k, v)| (*k, v.as_str())).collect();
                lost.set(
                    (unmappable > 0)
                        .then(|| qi_i18n::text::fill_all(t(lang, Text::Unmappable), &values)),
                );
            }
        });
    })
}

/// What the last import did.
fn import_message(lang: Lang, outcome: &ImportOutcome) -> Html {
    match outcome {
        ImportOutcome::Read(moves, warnings) => html! {
            <>
                <p class="record-ok" data-testid="import-result">{ fill(t(lang, Text::Imported), "n", &moves.to_string()) }</p>
                if !warnings.is_empty() {
                    <ul class="record-warnings" data-testid="import-warnings">
                        { for warnings.iter().map(|warning| html! { <li>{ warning.clone() }</li> }) }
                    </ul>
                }
            </>
        },
        ImportOutcome::Failed(message) => html! {
            <p class="record-error" data-testid="import-error">{ message.clone() }</p>
        },
        ImportOutcome::Reading => html! { <p class="record-reading">{ "…" }</p> },
    }
}

/// The games of a file of several, to pick one from, with a search over their tags.
fn picker_view(
    lang: Lang,
    picker: &Picker,
    search: &UseStateHandle<String>,
    importer: &Importer,
) -> Html {
    let on_search = {
        let search = search.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() {
                search.set(input.value());
            }
        })
    };
    let matching: Vec<(usize, &GameEntry)> =
        picker.games.iter().enumerate().filter(|(_, game)| matches_search(game, search)).collect();
    let more = matching.len().saturating_sub(PICKER_SHOWN);
    let items = matching.iter().take(PICKER_SHOWN).map(|&(index, game)| {
            let onclick = {
                let (importer, picker_state) = (importer.clone(), picker.clone());
                let range = game.range.clone();
                Callback::from(move |_: MouseEvent| {
                    let text = picker_state.text.get(range.clone()).unwrap_or_default().to_owned();
                    importer.import(text);
                })
            };
            html! {
                <li><button type="button" data-action="pick-game" data-index={index.to_string()} {onclick}>{ game_label(index, game) }</button></li>
            }
        });
    html! {
        <div class="record-games" data-testid="game-picker">
            <p>{ fill(t(lang, Text::PickGame), "n", &picker.games.len().to_string()) }</p>
            <input type="search" data-testid="game-search" aria-label={t(lang, Text::SearchGames)}
                   placeholder={t(lang, Text::SearchGames)} value={(**search).clone()} oninput={on_search} />
            <ul class="record-game-list">{ for items }</ul>
            if more > 0 {
                <p class="game-more">{ fill(t(lang, Text::MoreGames), "n", &more.to_string()) }</p>
            }
        </div>
    }
}
