//! Game ids, seat tokens and invite tokens from the operating system's secure randomness, and
//! comparing them without leaking where they differ.

/// Bytes of randomness in a seat or invite token (128 bits).
pub const TOKEN_BYTES: usize = 16;
/// Bytes of randomness in a game id (96 bits: short enough for a link, too many to guess).
pub const GAME_ID_BYTES: usize = 12;

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
    fn tokens_compare() {
        assert!(tokens_match("abc", "abc"));
        assert!(!tokens_match("abd", "abc"));
        assert!(!tokens_match("ab", "abc"));
        assert!(!tokens_match("", "abc"));
    }
}
