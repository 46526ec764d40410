//! Game ids, seat tokens and invite tokens from the operating system's secure randomness, their
//! hashes, and comparing them without leaking where they differ.
//!
//! # What is stored
//! Storage keeps no token, only [`hash_token`] of each: SHA-256 of the token's UTF-8 bytes in
//! URL-safe base64 without padding (43 characters). A copy of the database then seats nobody: a
//! token cannot be had back from its hash, and a hash sent as a token hashes to something else.
//! Tokens are 128 random bits, so no salt or slow hash is needed: there is nothing to guess.
//!
//! The invite is [`invite_for`] the creator's seat token, so that the server, which forgets
//! plaintext tokens, can give it back to the creator when they come back with their token.

/// Bytes of randomness in a seat or invite token (128 bits).
pub const TOKEN_BYTES: usize = 16;
/// Bytes of randomness in a game id (96 bits: short enough for a link, too many to guess).
pub const GAME_ID_BYTES: usize = 12;

use sha2::{Digest, Sha256};

/// The URL-safe base64 alphabet (RFC 4648 §5).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Randomness could not be had from the operating system.
#[derive(Debug)]
pub struct RandomnessError(getrandom::Error);

impl std::fmt::Display for RandomnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no secure randomness from the operating system: {}", self.0)
    }
}

impl std::error::Error for RandomnessError {}

/// Fills `bytes` from the operating system's secure random source.
///
/// # Errors
/// [`RandomnessError`] when the source fails (it practically never does on Linux).
pub fn fill_random(bytes: &mut [u8]) -> Result<(), RandomnessError> {
    getrandom::fill(bytes).map_err(RandomnessError)
}

/// A secure random 64-bit number (banqi deals, Chess960 starts, seat lots).
///
/// # Errors
/// [`RandomnessError`].
pub fn random_u64() -> Result<u64, RandomnessError> {
    getrandom::u64().map_err(RandomnessError)
}

/// `bytes` in URL-safe base64 without padding.
#[must_use]
pub fn encode_url_safe(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        let digits = chunk.len() + 1;
        for i in 0..digits {
            let index = (n >> (18 - 6 * i)) & 63;
            text.push(char::from(ALPHABET[index as usize]));
        }
    }
    text
}

/// A new seat or invite token: 128 random bits, 22 URL-safe characters.
///
/// # Errors
/// [`RandomnessError`].
pub fn new_token() -> Result<String, RandomnessError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    fill_random(&mut bytes)?;
    Ok(encode_url_safe(&bytes))
}

/// A new game id: 96 random bits, 16 URL-safe characters.
///
/// # Errors
/// [`RandomnessError`].
pub fn new_game_id() -> Result<String, RandomnessError> {
    let mut bytes = [0u8; GAME_ID_BYTES];
    fill_random(&mut bytes)?;
    Ok(encode_url_safe(&bytes))
}

/// What storage keeps of a token: SHA-256 of its UTF-8 bytes, in URL-safe base64 without
/// padding (43 characters).
#[must_use]
pub fn hash_token(token: &str) -> String {
    encode_url_safe(&Sha256::digest(token.as_bytes()))
}

/// Whether `given` (from a client) is the token whose [`hash_token`] is `hash`. The hashes are
/// compared in constant time.
#[must_use]
pub fn token_matches_hash(given: &str, hash: &str) -> bool {
    tokens_match(&hash_token(given), hash)
}

/// The invite of a game created by the holder of `creator_token`: the first 16 bytes of
/// SHA-256(`"qi-invite\0"` + the token), in URL-safe base64 (22 characters, the shape of any
/// token). It tells nothing of the seat token (SHA-256 cannot be undone), and the server can
/// make it again whenever the creator shows their token; the label keeps it apart from
/// [`hash_token`] of the same token.
#[must_use]
pub fn invite_for(creator_token: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"qi-invite\0");
    hasher.update(creator_token.as_bytes());
    encode_url_safe(&hasher.finalize()[..TOKEN_BYTES])
}

/// Whether two tokens are equal, taking the same time wherever they differ (only their lengths,
/// which are public, may show).
#[must_use]
pub fn tokens_match(given: &str, expected: &str) -> bool {
    let (given, expected) = (given.as_bytes(), expected.as_bytes());
    if given.len() != expected.len() {
        return false;
    }
    let difference = given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b));
    std::hint::black_box(difference) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_follows_rfc_4648_url_safe() {
        assert_eq!(encode_url_safe(b""), "");
        assert_eq!(encode_url_safe(b"f"), "Zg");
        assert_eq!(encode_url_safe(b"fo"), "Zm8");
        assert_eq!(encode_url_safe(b"foo"), "Zm9v");
        assert_eq!(encode_url_safe(b"foobar"), "Zm9vYmFy");
        assert_eq!(encode_url_safe(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn tokens_are_long_url_safe_and_different() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 22);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert_eq!(new_game_id().unwrap().len(), 16);
    }

    #[test]
    fn hashes_are_sha256_in_url_safe_base64() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.
        assert_eq!(hash_token("abc"), "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
        assert!(token_matches_hash("abc", &hash_token("abc")));
        assert!(!token_matches_hash("abd", &hash_token("abc")));
        // A stored hash is no token.
        assert!(!token_matches_hash(&hash_token("abc"), &hash_token("abc")));
    }

    #[test]
    fn invites_are_derived_token_shaped_and_not_the_hash() {
        let token = new_token().unwrap();
        let invite = invite_for(&token);
        assert_eq!(invite, invite_for(&token), "the same every time");
        assert_eq!(invite.len(), 22);
        assert!(invite.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert_ne!(invite, invite_for(&new_token().unwrap()));
        assert!(!hash_token(&token).starts_with(&invite));
        assert_ne!(invite, token);
    }

    #[test]
    fn tokens_compare() {
        assert!(tokens_match("abc", "abc"));
        assert!(!tokens_match("abd", "abc"));
        assert!(!tokens_match("ab", "abc"));
        assert!(!tokens_match("", "abc"));
    }
}
