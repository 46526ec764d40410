//! The lobby's account box: signed out, a username and a password to sign in or register;
//! signed in, the name (linking to the profile), the ratings, logging out, and a change of
//! password. Every change of account goes to the page, which opens its socket anew.

use qi_protocol::{
    AccountError, AccountErrorCode, AccountView, Credentials, PASSWORD_MAX_CHARS, PasswordChange,
    USERNAME_MAX_CHARS, check_password, check_username,
};
use yew::prelude::*;

use super::account::{self, AccountState};
use super::address::profile_href;
use super::labels::variant_label;
use super::texts::shown_text;
use super::texts::{Words, say};
use qi_i18n::text::{Lang, fill_all};

/// The longest server detail shown beside an account error.
const DETAIL_MAX_CHARS: usize = 200;

/// What to say for an account error, in the reader's language.
#[must_use]
pub fn error_words(code: AccountErrorCode) -> Words {
    match code {
        AccountErrorCode::BadUsername => Words::AccountBadUsername,
        AccountErrorCode::BadPassword => Words::AccountBadPassword,
        AccountErrorCode::NameTaken => Words::AccountNameTaken,
        AccountErrorCode::WrongCredentials => Words::AccountWrongCredentials,
        AccountErrorCode::TooManyAttempts => Words::AccountTooManyAttempts,
        AccountErrorCode::NotSignedIn => Words::AccountNotSignedIn,
        AccountErrorCode::UnknownPlayer => Words::AccountUnknownPlayer,
        AccountErrorCode::Unavailable => Words::AccountUnavailable,
        AccountErrorCode::BadRequest => Words::ErrorBadMessage,
        AccountErrorCode::NotFound | AccountErrorCode::Refused | AccountErrorCode::Other => {
            Words::AccountOther
        }
    }
}

/// Whether the server's English detail is worth showing beside the words: when it says
/// something the words cannot (when to try again).
fn shows_detail(code: AccountErrorCode) -> bool {
    matches!(code, AccountErrorCode::TooManyAttempts | AccountErrorCode::Other)
}

/// Checks a new account's name and password before sending them, as the server would.
///
/// # Errors
/// The error the server would answer.
pub fn check_new_account(credentials: &Credentials) -> Result<(), AccountError> {
    check_username(&credentials.name)
        .map_err(|e| AccountError { code: AccountErrorCode::BadUsername, detail: e.to_string() })?;
    check_password(&credentials.password)
        .map_err(|detail| AccountError { code: AccountErrorCode::BadPassword, detail })
}

/// What the box says after a request.
#[derive(Clone, Debug, PartialEq)]
enum Said {
    /// A refusal.
    Error(AccountError),
    /// The password was changed.
    PasswordChanged,
}

/// Properties of [`AccountBox`].
#[derive(Properties, PartialEq)]
pub struct AccountBoxProps {
    /// The interface language.
    pub lang: Lang,
    /// The account as the server said.
    pub state: AccountState,
    /// The account changed: signed in, out, or a new password.
    pub on_change: Callback<AccountState>,
}

/// The value of an input's event.
fn input_value(event: &InputEvent) -> Option<String> {
    event.target_dyn_into::<web_sys::HtmlInputElement>().map(|input| input.value())
}

/// A text input bound to `state`.
fn bind(state: &UseStateHandle<String>) -> Callback<InputEvent> {
    let state = state.clone();
    Callback::from(move |event: InputEvent| {
        if let Some(value) = input_value(&event) {
            state.set(value);
        }
    })
}

/// A request of the account box, to the server's account routes: a new account state on
/// success (or none when it stays).
type AccountRequest =
    std::pin::Pin<Box<dyn Future<Output = Result<Option<AccountState>, AccountError>>>>;

/// Runs the account box's requests: busy meanwhile, then what it says, and a new account state
/// on success.
#[derive(Clone)]
struct Runner {
    busy: UseStateHandle<bool>,
    said: UseStateHandle<Option<Said>>,
    on_change: Callback<AccountState>,
}

impl Runner {
    /// Runs `request` unless one runs already; `success` is said when it succeeds.
    fn run(&self, request: AccountRequest, success: Option<Said>) {
        if *self.busy {
            return;
        }
        self.busy.set(true);
        self.said.set(None);
        let (busy, said, on_change) =
            (self.busy.clone(), self.said.clone(), self.on_change.clone());
        yew::platform::spawn_local(async move {
            let outcome = request.await;
            busy.set(false);
            match outcome {
                Ok(state) => {
                    said.set(success);
                    if let Some(state) = state {
                        on_change.emit(state);
                    }
                }
                Err(error) => said.set(Some(Said::Error(error))),
            }
        });
    }
}

/// The state signed in as `view`, for a request's answer.
fn signed_in(view: AccountView) -> Option<AccountState> {
    Some(AccountState::SignedIn(view))
}

/// The account box (nothing when the server has no accounts).
#[function_component(AccountBox)]
pub fn account_box(props: &AccountBoxProps) -> Html {
    let lang = props.lang;
    let name = use_state(String::new);
    let password = use_state(String::new);
    let old_password = use_state(String::new);
    let new_password = use_state(String::new);
    let busy = use_state(|| false);
    let said = use_state(|| None::<Said>);
    let runner =
        Runner { busy: busy.clone(), said: said.clone(), on_change: props.on_change.clone() };
    let content = match &props.state {
        AccountState::Unknown | AccountState::Unavailable => return Html::default(),
        AccountState::SignedOut => signed_out_view(lang, &runner, &name, &password),
        AccountState::SignedIn(view) => {
            signed_in_view(lang, &runner, view, &old_password, &new_password)
        }
    };
    html! {
        <section class="panel account" data-testid="account" aria-labelledby="account-heading">
            <h2 id="account-heading">{ say(lang, Words::Account) }</h2>
            { content }
            if *busy {
                <p class="account-note" role="status">{ say(lang, Words::Working) }</p>
            }
            { said.as_ref().map(|said| said_view(lang, said)).unwrap_or_default() }
        </section>
    }
}

/// What the last request said: the server's error, or that the password changed.
fn said_view(lang: Lang, said: &Said) -> Html {
    match said {
        Said::Error(error) => {
            let mut text = say(lang, error_words(error.code)).to_owned();
            if shows_detail(error.code) && !error.detail.trim().is_empty() {
                let detail = shown_text(&error.detail, DETAIL_MAX_CHARS);
                text = format!(
                    "{text} {}",
                    fill_all(say(lang, Words::ServerSays), &[("detail", &detail)])
                );
            }
            html! {
                <p class="account-error" role="alert" data-testid="account-error"
                   data-code={serde_json::to_string(&error.code).unwrap_or_default().trim_matches('"').to_owned()}>{ text }</p>
            }
        }
        Said::PasswordChanged => html! {
            <p class="account-note" role="status" data-testid="account-note">{ say(lang, Words::PasswordChanged) }</p>
        },
    }
}

/// Signed out: the name and password, to sign in or register.
fn signed_out_view(
    lang: Lang,
    runner: &Runner,
    name: &UseStateHandle<String>,
    password: &UseStateHandle<String>,
) -> Html {
    let busy = *runner.busy;
    let credentials = Credentials { name: name.trim().to_owned(), password: (**password).clone() };
    let on_sign_in = {
        let (runner, credentials) = (runner.clone(), credentials.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let credentials = credentials.clone();
            runner.run(
                Box::pin(async move { account::login(&credentials).await.map(signed_in) }),
                None,
            );
        })
    };
    let on_register = {
        let (runner, said) = (runner.clone(), runner.said.clone());
        Callback::from(move |_: MouseEvent| {
            if let Err(error) = check_new_account(&credentials) {
                said.set(Some(Said::Error(error)));
                return;
            }
            let credentials = credentials.clone();
            runner.run(
                Box::pin(async move { account::register(&credentials).await.map(signed_in) }),
                None,
            );
        })
    };
    html! {
        <>
            <p class="muted-note">{ say(lang, Words::AccountHint) }</p>
            <form class="account-form" onsubmit={on_sign_in} data-testid="sign-in-form">
                <label class="field">
                    <span>{ say(lang, Words::Username) }</span>
                    <input type="text" name="username" data-testid="account-name" autocomplete="username"
                           maxlength={USERNAME_MAX_CHARS.to_string()} required=true autocapitalize="none" spellcheck="false"
                           value={(**name).clone()} oninput={bind(name)} />
                </label>
                <label class="field">
                    <span>{ say(lang, Words::Password) }</span>
                    <input type="password" name="password" data-testid="account-password" autocomplete="current-password"
                           maxlength={PASSWORD_MAX_CHARS.to_string()} required=true
                           value={(**password).clone()} oninput={bind(password)} />
                </label>
                <div class="lobby-buttons">
                    <button type="submit" class="primary" data-action="sign-in" disabled={busy}>{ say(lang, Words::SignIn) }</button>
                    <button type="button" data-action="register" disabled={busy} onclick={on_register}>{ say(lang, Words::Register) }</button>
                </div>
            </form>
        </>
    }
}

/// Signed in: the name (a link to the profile), the ratings, logging out, a new password.
fn signed_in_view(
    lang: Lang,
    runner: &Runner,
    view: &AccountView,
    old_password: &UseStateHandle<String>,
    new_password: &UseStateHandle<String>,
) -> Html {
    let busy = *runner.busy;
    let on_logout = {
        let runner = runner.clone();
        Callback::from(move |_: MouseEvent| {
            crate::puzzles::forget_unsent_results();
            runner.run(
                Box::pin(async { account::logout().await.map(|()| Some(AccountState::SignedOut)) }),
                None,
            );
        })
    };
    let on_logout_everywhere = {
        let runner = runner.clone();
        Callback::from(move |_: MouseEvent| {
            crate::puzzles::forget_unsent_results();
            runner.run(
                Box::pin(async {
                    account::logout_everywhere().await.map(|()| Some(AccountState::SignedOut))
                }),
                None,
            );
        })
    };
    let on_change_password = {
        let (runner, old, new) = (runner.clone(), old_password.clone(), new_password.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            if let Err(detail) = check_password(&new) {
                let error = AccountError { code: AccountErrorCode::BadPassword, detail };
                runner.said.set(Some(Said::Error(error)));
                return;
            }
            let change = PasswordChange { old: (*old).clone(), new: (*new).clone() };
            let (old, new) = (old.clone(), new.clone());
            runner.run(
                Box::pin(async move {
                    let view = account::change_password(&change).await?;
                    old.set(String::new());
                    new.set(String::new());
                    Ok(signed_in(view))
                }),
                Some(Said::PasswordChanged),
            );
        })
    };
    let ratings = view.ratings.iter().map(|rating| {
        html! {
            <li data-kind={rating.kind.clone()} data-rating={rating.rating.to_string()}>
                <span>{ variant_label(lang, &rating.kind) }</span>
                <strong>{ rating.rating.to_string() }</strong>
            </li>
        }
    });
    let name = shown_text(&view.name, USERNAME_MAX_CHARS);
    // The name goes where the template says, as a link.
    let template = say(lang, Words::SignedInAs);
    let (before, after) = template.split_once("{name}").unwrap_or((template, ""));
    html! {
        <>
            <p class="signed-in" data-testid="signed-in" data-name={name.clone()}>
                { before }
                <a href={profile_href(&name)} data-action="own-profile">{ name.clone() }</a>
                { after }
            </p>
            <ul class="account-ratings" aria-label={say(lang, Words::Ratings)}>{ for ratings }</ul>
            <div class="lobby-buttons">
                <button type="button" data-action="log-out" disabled={busy} onclick={on_logout}>{ say(lang, Words::LogOut) }</button>
                <button type="button" data-action="log-out-everywhere" disabled={busy} onclick={on_logout_everywhere}>{ say(lang, Words::LogOutEverywhere) }</button>
            </div>
            <details class="change-password">
                <summary>{ say(lang, Words::ChangePassword) }</summary>
                <form class="account-form" onsubmit={on_change_password}>
                    <input type="text" name="username" autocomplete="username" value={name} hidden=true readonly=true />
                    <label class="field">
                        <span>{ say(lang, Words::CurrentPassword) }</span>
                        <input type="password" data-testid="old-password" autocomplete="current-password"
                               maxlength={PASSWORD_MAX_CHARS.to_string()} required=true
                               value={(**old_password).clone()} oninput={bind(old_password)} />
                    </label>
                    <label class="field">
                        <span>{ say(lang, Words::NewPassword) }</span>
                        <input type="password" data-testid="new-password" autocomplete="new-password"
                               maxlength={PASSWORD_MAX_CHARS.to_string()} required=true
                               value={(**new_password).clone()} oninput={bind(new_password)} />
                    </label>
                    <div class="lobby-buttons">
                        <button type="submit" data-action="save-password" disabled={busy}>{ say(lang, Words::SavePassword) }</button>
                    </div>
                </form>
            </details>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_accounts_are_checked_before_sending() {
        let ok = Credentials { name: "Ann_1".into(), password: "12345678".into() };
        assert_eq!(check_new_account(&ok), Ok(()));
        let short = Credentials { name: "An".into(), ..ok.clone() };
        assert_eq!(check_new_account(&short).unwrap_err().code, AccountErrorCode::BadUsername);
        let weak = Credentials { password: "1234".into(), ..ok };
        assert_eq!(check_new_account(&weak).unwrap_err().code, AccountErrorCode::BadPassword);
    }

    #[test]
    fn errors_are_worded_by_code() {
        assert_eq!(error_words(AccountErrorCode::WrongCredentials), Words::AccountWrongCredentials);
        assert_eq!(error_words(AccountErrorCode::NameTaken), Words::AccountNameTaken);
        assert!(shows_detail(AccountErrorCode::TooManyAttempts));
        assert!(!shows_detail(AccountErrorCode::BadUsername), "the rule is said in the language");
        assert_eq!(say(Lang::En, Words::AccountWrongCredentials), "Wrong username or password.");
    }

    #[test]
    fn the_rules_said_are_the_protocols() {
        use qi_protocol::{PASSWORD_MIN_CHARS, USERNAME_MIN_CHARS};
        for lang in Lang::ALL {
            let name_rule = format!("{USERNAME_MIN_CHARS} ");
            assert!(say(lang, Words::AccountBadUsername).contains(&name_rule), "{lang:?}");
            assert!(say(lang, Words::AccountBadUsername).contains(&USERNAME_MAX_CHARS.to_string()));
            let password_rule = format!("{PASSWORD_MIN_CHARS} ");
            assert!(say(lang, Words::AccountBadPassword).contains(&password_rule), "{lang:?}");
            assert!(say(lang, Words::AccountBadPassword).contains(&PASSWORD_MAX_CHARS.to_string()));
        }
    }
}
