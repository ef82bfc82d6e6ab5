//! Counts as a user types them: `1000000`, `1_000_000`, `1,000,000`, `1e6`, `2.5e6`, `10^6`.

/// A count typed on a command line or in the REPL: digits (with `_` or `,` between groups, as
/// the answers print them), a power (`10^8`, `2^20`), or a whole number in scientific notation
/// (`1e10`, `2.5e6`). The error says what was wrong and how to write it.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let typed = text.trim();
    let how = "write a whole number, such as 1000000, 1e6 or 10^6";
    if typed.is_empty() {
        return Err(format!("a count is missing: {how}"));
    }
    let too_large = || format!("`{typed}` is past the largest count, 2^64 − 1 = {}", u64::MAX);
    let digits = |part: &str| -> Result<u64, String> {
        let plain: String = part.chars().filter(|c| !matches!(c, '_' | ',')).collect();
        if plain.is_empty() || !plain.chars().all(|c| c.is_ascii_digit()) || part.starts_with([',', '_']) {
            return Err(format!("`{typed}` is not a count: {how}"));
        }
        plain.parse::<u64>().map_err(|_| too_large())
    };
    if let Some((base, exponent)) = typed.split_once('^').or_else(|| typed.split_once("**")) {
        let (base, exponent) = (digits(base.trim())?, digits(exponent.trim())?);
        let exponent = u32::try_from(exponent).map_err(|_| too_large())?;
        return base.checked_pow(exponent).ok_or_else(too_large);
    }
    if let Some((mantissa, exponent)) = typed.split_once(['e', 'E']) {
        if exponent.starts_with('-') {
            return Err(format!("`{typed}` is not a whole number: a count has no fraction ({how})"));
        }
        let exponent: u32 =
            exponent.strip_prefix('+').unwrap_or(exponent).parse().map_err(|_| {
                format!("`{typed}` is not a count: its exponent must be a whole number, 0 or more ({how})")
            })?;
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if !fraction.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!("`{typed}` is not a count: {how}"));
        }
        // 2.5e6 is 25 shifted by 6 − 1 places: exact, never through a float.
        let significant = format!("{}{fraction}", if whole.is_empty() { "0" } else { whole });
        let value = digits(&significant)?;
        let places = exponent
            .checked_sub(fraction.len() as u32)
            .ok_or_else(|| format!("`{typed}` is not a whole number: a count has no fraction ({how})"))?;
        return 10u64.checked_pow(places).and_then(|p| value.checked_mul(p)).ok_or_else(too_large);
    }
    digits(typed)
}

#[cfg(test)]
mod tests {
    use super::parse_count;

    #[test]
    fn counts_read_as_typed() {
        for (text, count) in [
            ("1000000", 1_000_000),
            ("1_000_000", 1_000_000),
            ("1,000,000", 1_000_000),
            ("1e6", 1_000_000),
            ("1E10", 10_000_000_000),
            ("2.5e6", 2_500_000),
            ("1e+3", 1000),
            ("10^8", 100_000_000),
            ("2^20", 1 << 20),
            ("2**10", 1024),
            (" 7 ", 7),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(parse_count(text), Ok(count), "{text}");
        }
    }

    #[test]
    fn what_is_not_a_count_says_how_to_write_one() {
        for text in ["", "-3", "1.5", "1e-3", "2.55e1", "abc", "1e", "^3", ",1", "1e30", "2^64", "99999999999999999999"]
        {
            let e = parse_count(text).expect_err(text);
            assert!(e.contains("count") || e.contains("whole number"), "{text}: {e}");
        }
        assert!(parse_count("2^64").unwrap_err().contains("past the largest count"));
    }
}
