//! Records in and out: paste or choose a file to import (PGN, FEN, move lists, the banqi
//! record), copy or download the game in any of its game's formats.

use qi_rules::GameKind;
use yew::prelude::*;

use super::SharedState;
use super::share::CopyField;
use crate::i18n::{Lang, Text, fill, t};
use crate::records::{self, Format};
use crate::state::Action;
use crate::think::{Think, WorkerRequest};
use crate::web;
use crate::worker_tasks::{TaskReply, TaskRequest};
use yew_agent::oneshot::{UseOneshotRunnerHandle, use_oneshot_runner};

/// Properties of [`RecordsDialog`].
#[derive(Properties, PartialEq)]
pub struct RecordsDialogProps {
    /// The state shown.
    pub state: SharedState,
    /// Where actions go (an import opens the game).
    pub dispatch: Callback<Action>,
    /// Closes the dialog.
    pub close: Callback<()>,
}

/// What the last import attempt said.
#[derive(Clone, Debug, PartialEq)]
enum ImportOutcome {
    /// Read: this many moves.
    Read(usize),
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
        note.push(crate::i18n::fill_all(t(lang, Text::UnreadableBytes), &values));
    }
    (!note.is_empty()).then(|| note.join(" "))
}

/// A format's label in the picker, e.g. "PGN", "FEN", "h8i9j10…".
fn format_label(lang: Lang, format: Format) -> &'static str {
    match format {
        Format::ChessPgn | Format::XiangqiPgn | Format::BanqiPgn | Format::GomokuPgn => "PGN",
        Format::XiangqiChinese => "PGN (中文)",
        Format::ChessFen | Format::XiangqiFen => "FEN",
        Format::BanqiPosition | Format::GomokuPosition => t(lang, Text::PositionFormat),
        Format::GomokuMoves => "h8i9j10…",
    }
}

/// Reads `text` in the worker and opens the game it holds (or as much of it as reads).
fn import_text(
    runner: &UseOneshotRunnerHandle<Think>,
    lang: Lang,
    kind: GameKind,
    text: String,
    dispatch: &Callback<Action>,
    outcome: &UseStateHandle<Option<ImportOutcome>>,
) {
    outcome.set(Some(ImportOutcome::Reading));
    let (runner, dispatch, outcome) = (runner.clone(), dispatch.clone(), outcome.clone());
    yew::platform::spawn_local(async move {
        let request = TaskRequest::Import { lang, hint: kind, text };
        let reply = runner.run(WorkerRequest::Task(request)).await.task();
        let open = |record| Action::Open { record, bottom: None, at: None, notice: None };
        match reply {
            Some(TaskReply::Imported { record }) => {
                outcome.set(Some(ImportOutcome::Read(record.moves.len())));
                dispatch.emit(open(record));
            }
            Some(TaskReply::Failed { message, partial }) => {
                if let Some(record) = partial {
                    dispatch.emit(open(record));
                }
                outcome.set(Some(ImportOutcome::Failed(message)));
            }
            _ => outcome.set(None),
        }
    });
}

/// The import and export dialog.
#[function_component(RecordsDialog)]
pub fn records_dialog(props: &RecordsDialogProps) -> Html {
    let state = props.state.get();
    let lang: Lang = state.settings.lang;
    let kind = state.record.kind;
    let formats = Format::for_game(kind);
    let format = use_state(|| formats[0]);
    let format_now = if formats.contains(&*format) { *format } else { formats[0] };
    let pasted = use_state(String::new);
    let outcome = use_state(|| None::<ImportOutcome>);
    // The encoding a chosen file was read in, when worth saying.
    let read_as = use_state(|| None::<String>);
    let runner = use_oneshot_runner::<Think>();
    // The export is written in the worker, again whenever the game or the format changes.
    let exported = use_state(String::new);
    {
        let (runner, exported) = (runner.clone(), exported.clone());
        use_effect_with((state.record.clone(), format_now), move |(record, format)| {
            let request = TaskRequest::Export { record: (**record).clone(), format: *format };
            yew::platform::spawn_local(async move {
                if let Some(TaskReply::Exported { text }) =
                    runner.run(WorkerRequest::Task(request)).await.task()
                {
                    exported.set(text);
                }
            });
        });
    }
    let exported = (*exported).clone();

    let on_input = {
        let pasted = pasted.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(area) = event.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                pasted.set(area.value());
            }
        })
    };
    let on_import = {
        let (pasted, outcome, dispatch) = (pasted.clone(), outcome.clone(), props.dispatch.clone());
        let runner = runner.clone();
        let read_as = read_as.clone();
        Callback::from(move |_: MouseEvent| {
            read_as.set(None);
            import_text(&runner, lang, kind, (*pasted).clone(), &dispatch, &outcome);
        })
    };
    let on_file = {
        let (pasted, outcome, dispatch) = (pasted.clone(), outcome.clone(), props.dispatch.clone());
        let read_as = read_as.clone();
        let runner = runner.clone();
        Callback::from(move |event: Event| {
            let Some(input) = event.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
            // A file too big to read: let the reader say so, without loading it all.
            let too_big = file.size() > records::MAX_INPUT as f64;
            let (pasted, outcome, dispatch) = (pasted.clone(), outcome.clone(), dispatch.clone());
            let runner = runner.clone();
            let read_as = read_as.clone();
            yew::platform::spawn_local(async move {
                let text = if too_big {
                    read_as.set(None);
                    "x".repeat(records::MAX_INPUT + 1)
                } else {
                    // In whatever encoding it came (GBK, Big5, UTF-16 ...), said when not UTF-8.
                    // Read in the worker, which has the encodings' tables.
                    let bytes = web::read_file(file).await.unwrap_or_default();
                    let request = WorkerRequest::Task(TaskRequest::Decode { bytes });
                    match runner.run(request).await.task() {
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
                if !too_big {
                    pasted.set(text.clone());
                }
                import_text(&runner, lang, kind, text, &dispatch, &outcome);
            });
        })
    };
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
    let on_download = {
        let text = exported.clone();
        let name = format!("qi-{}.{}", kind.name(), format_now.extension());
        Callback::from(move |_: MouseEvent| web::download(&name, format_now.mime_type(), &text))
    };
    let on_close = {
        let close = props.close.clone();
        Callback::from(move |_: MouseEvent| close.emit(()))
    };
    let message = outcome.as_ref().map(|outcome| match outcome {
        ImportOutcome::Read(moves) => html! {
            <p class="record-ok" data-testid="import-result">{ fill(t(lang, Text::Imported), "n", &moves.to_string()) }</p>
        },
        ImportOutcome::Failed(message) => html! {
            <p class="record-error" data-testid="import-error">{ message.clone() }</p>
        },
        ImportOutcome::Reading => html! { <p class="record-reading">{ "…" }</p> },
    });
    let read_as_note = (*read_as).clone().map(|note| {
        html! { <p class="record-encoding" data-testid="import-encoding">{ note }</p> }
    });
    let options = formats.iter().map(|&f| {
        html! { <option value={f.name()} selected={f == format_now}>{ format_label(lang, f) }</option> }
    });
    html! {
        <div class="dialog-backdrop">
            <div class="dialog wide records" role="dialog" aria-modal="true" aria-label={t(lang, Text::Records)}>
                <h2>{ t(lang, Text::Records) }</h2>
                <h3>{ t(lang, Text::Import) }</h3>
                <label class="copy-field">
                    <span>{ t(lang, Text::PasteRecord) }</span>
                    <textarea rows="5" data-testid="import-text" value={(*pasted).clone()} oninput={on_input} />
                </label>
                <div class="record-actions">
                    <button type="button" data-action="import" onclick={on_import}>{ t(lang, Text::Import) }</button>
                    <input type="file" data-testid="import-file" accept=".pgn,.fen,.txt,.psq,text/plain" onchange={on_file} />
                </div>
                { read_as_note.unwrap_or_default() }
                { message.unwrap_or_default() }
                <h3>{ t(lang, Text::Export) }</h3>
                <label class="format">
                    { t(lang, Text::Format) }
                    <select data-testid="export-format" onchange={on_format}>{ for options }</select>
                </label>
                <CopyField {lang} label={Text::Export} value={exported} testid="export-text" multiline=true />
                <div class="record-actions">
                    <button type="button" data-action="download" onclick={on_download}>{ t(lang, Text::Download) }</button>
                </div>
                <button type="button" class="secondary" data-action="close-dialog" onclick={on_close}>{ t(lang, Text::Close) }</button>
            </div>
        </div>
    }
}
