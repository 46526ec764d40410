//! Decimal numbers as text — board coordinates, seconds in links, clock labels — in whole
//! numbers of hundredths or thousandths.
//!
//! Why not `f64`'s `Display` and `FromStr`: they bring about 25 KB of tables and code into the
//! page's wasm (shortest round-trip printing, and the Eisel–Lemire tables for reading), about a
//! tenth of its compressed size, for a handful of short numbers.

/// `value / 10^scale` written as `f64`'s `Display` would write it: no exponent, no trailing
/// zeros, no trailing point (`decimal(35, 1)` is "3.5", `decimal(3000, 3)` is "3").
#[must_use]
pub fn decimal(value: i64, scale: u32) -> String {
    let unit = 10_u64.pow(scale);
    let magnitude = value.unsigned_abs();
    let sign = if value < 0 { "-" } else { "" };
    let (whole, mut fraction) = (magnitude / unit, magnitude % unit);
    if fraction == 0 {
        return format!("{sign}{whole}");
    }
    let mut digits = scale as usize;
    while fraction % 10 == 0 {
        fraction /= 10;
        digits -= 1;
    }
    format!("{sign}{whole}.{fraction:0digits$}")
}

/// Reads a non-negative decimal number (`2`, `1.5`, `.75`, `0,5`) as a whole number of
/// `10^-scale` units, rounding half up past `scale` digits. `None` for anything else: signs,
/// exponents, spaces inside, more than 12 whole digits.
#[must_use]
pub fn parse_decimal(text: &str, scale: u32) -> Option<u64> {
    let (whole, fraction) = match text.find(['.', ',']) {
        Some(at) => (&text[..at], &text[at + 1..]),
        None => (text, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    if whole.len() > 12 {
        return None;
    }
    let mut value: u64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let mut digits = fraction.bytes().map(|b| u64::from(b - b'0'));
    for _ in 0..scale {
        value = value * 10 + digits.next().unwrap_or(0);
    }
    if digits.next().is_some_and(|next| next >= 5) {
        value += 1;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_as_floats_display_does() {
        for (value, scale, text) in [
            (35, 1, "3.5"),
            (30, 1, "3"),
            (5, 1, "0.5"),
            (275, 2, "2.75"),
            (50, 2, "0.5"),
            (1500, 3, "1.5"),
            (250, 3, "0.25"),
            (30_000, 3, "30"),
            (0, 2, "0"),
            (-45, 1, "-4.5"),
            (7, 0, "7"),
        ] {
            assert_eq!(decimal(value, scale), text, "{value} / 10^{scale}");
            // The same text as the float would give.
            let float = value as f64 / 10_f64.powi(scale as i32);
            assert_eq!(float.to_string(), text);
        }
    }

    #[test]
    fn reads_what_people_type() {
        assert_eq!(parse_decimal("1.5", 3), Some(1500));
        assert_eq!(parse_decimal("2", 3), Some(2000));
        assert_eq!(parse_decimal(".75", 3), Some(750));
        assert_eq!(parse_decimal("0,3", 3), Some(300));
        assert_eq!(parse_decimal("1.", 3), Some(1000));
        assert_eq!(parse_decimal("0.0005", 3), Some(1), "rounds half up");
        assert_eq!(parse_decimal("0.00049", 3), Some(0));
        assert_eq!(parse_decimal("30", 0), Some(30));
        for bad in
            ["", ".", "-1", "+1", "1e3", "1.2.3", " 1", "1 ", "inf", "NaN", "１", "9999999999999"]
        {
            assert_eq!(parse_decimal(bad, 3), None, "{bad:?}");
        }
    }

    #[test]
    fn round_trips() {
        for ms in [300_u32, 1000, 1250, 1500, 3000, 29_999, 30_000] {
            assert_eq!(parse_decimal(&decimal(i64::from(ms), 3), 3), Some(u64::from(ms)));
        }
    }
}
