//! Any bytes as the lines a GUI or match manager sends `qi piskvork`: the session must keep the
//! promises of `qi_cli::conformance::piskvork_script` (one-line replies of the protocol's
//! shapes, a refused command changes nothing, every search answers once with a legal move).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = qi_cli::conformance::piskvork_script(data) {
        panic!("{broken}");
    }
});
