//! A `date-time` (RFC 3339) value and the browser's local date-time input, which shows and
//! takes a wall-clock time without a time zone (`2026-12-03T10:30`).
//!
//! Pure text work, unit-tested natively; reading the browser's time zone (which offset a
//! wall-clock time has there, and which wall-clock time an instant is) is left to the caller.

/// The wall-clock parts of a local date-time input's value (`YYYY-MM-DDTHH:MM`, seconds and a
/// fraction optional), or `None` if it is not one.
fn local_parts(local: &str) -> Option<(&str, &str)> {
    let (date, time) = local.split_once('T')?;
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let mut d = date.split('-');
    let date_ok = matches!((d.next(), d.next(), d.next(), d.next()),
        (Some(y), Some(m), Some(day), None) if digits(y, 4) && digits(m, 2) && digits(day, 2));
    let (hms, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut t = hms.split(':');
    let time_ok = match (t.next(), t.next(), t.next(), t.next()) {
        (Some(h), Some(m), None, None) => digits(h, 2) && digits(m, 2) && fraction.is_empty(),
        (Some(h), Some(m), Some(s), None) => {
            digits(h, 2)
                && digits(m, 2)
                && digits(s, 2)
                && fraction.bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    };
    (date_ok && time_ok).then_some((date, time))
}

/// The RFC 3339 date-time of a local input's value, at `offset_minutes` east of UTC (the
/// browser's offset at that time): `2026-12-03T10:30` at +60 is `2026-12-03T10:30:00+01:00`;
/// at 0 it ends in `Z`. `None` if `local` is not such a value.
pub fn rfc3339_from_local(local: &str, offset_minutes: i32) -> Option<String> {
    let (date, time) = local_parts(local)?;
    let seconds = if time.len() == 5 { ":00" } else { "" };
    let zone = if offset_minutes == 0 {
        "Z".to_string()
    } else {
        let sign = if offset_minutes < 0 { '-' } else { '+' };
        let m = offset_minutes.unsigned_abs();
        format!("{sign}{:02}:{:02}", m / 60, m % 60)
    };
    Some(format!("{date}T{time}{seconds}{zone}"))
}

/// A local input's value for the wall-clock time given in parts (month 1–12), to the second
/// (a whole minute without its seconds, as the browser writes it).
pub fn local_text(year: u32, month: u32, day: u32, hour: u32, minute: u32, second: u32) -> String {
    let base = format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}");
    if second == 0 {
        base
    } else {
        format!("{base}:{second:02}")
    }
}

/// Whether `text` reads as an RFC 3339 date-time with its time zone (`…Z` or `…±HH:MM`): what
/// the input can show in local time. Anything else (a value typed by hand, a default that is
/// not one) is left as it is, in a text box.
pub fn is_rfc3339(text: &str) -> bool {
    let zone_at = if text.ends_with(['Z', 'z']) {
        text.len() - 1
    } else if text.len() > 6 && matches!(text.as_bytes()[text.len() - 6], b'+' | b'-') {
        text.len() - 6
    } else {
        return false;
    };
    let (local, zone) = text.split_at(zone_at);
    let zone_ok = zone.eq_ignore_ascii_case("z")
        || matches!(zone.as_bytes(), [_, h1, h2, b':', m1, m2]
            if [h1, h2, m1, m2].iter().all(|b| b.is_ascii_digit()));
    let local = local.replacen(['t', ' '], "T", 1);
    zone_ok && local_parts(&local).is_some_and(|(_, time)| time.len() >= 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_time_gets_the_offset_it_has_there() {
        assert_eq!(
            rfc3339_from_local("2026-12-03T10:30", 60).as_deref(),
            Some("2026-12-03T10:30:00+01:00")
        );
        assert_eq!(
            rfc3339_from_local("2026-12-03T10:30:15", -330).as_deref(),
            Some("2026-12-03T10:30:15-05:30")
        );
        assert_eq!(
            rfc3339_from_local("2026-12-03T10:30:15.250", 0).as_deref(),
            Some("2026-12-03T10:30:15.250Z")
        );
        for bad in [
            "",
            "2026-12-03",
            "2026-12-03T10",
            "2026-1-03T10:30",
            "2026-12-03T10:30:1",
            "x026-12-03T10:30",
            "2026-12-03T10:30.5",
        ] {
            assert_eq!(rfc3339_from_local(bad, 0), None, "{bad:?}");
        }
    }

    #[test]
    fn the_input_is_given_a_minute_or_a_second() {
        assert_eq!(local_text(2026, 1, 2, 3, 4, 0), "2026-01-02T03:04");
        assert_eq!(local_text(2026, 12, 31, 23, 59, 7), "2026-12-31T23:59:07");
    }

    #[test]
    fn only_a_date_time_with_its_zone_is_shown_in_local_time() {
        for good in [
            "2026-12-03T10:30:00Z",
            "2026-12-03T10:30:00+01:00",
            "2026-12-03t10:30:00.5-05:30",
            "2026-12-03 10:30:00z",
        ] {
            assert!(is_rfc3339(good), "{good:?}");
        }
        for bad in [
            "",
            "2026-12-03T10:30",
            "2026-12-03T10:30Z",
            "2026-12-03T10:30:00",
            "2026-12-03T10:30:00+1:00",
            "tomorrow",
            "2026-12-03T10:30:00+01:0x",
            "Z",
            "€€€€€€€",
            "ü2026-12-03T10:30:00+01:00",
            "2026-12-03T10:30:00€01:00",
        ] {
            assert!(!is_rfc3339(bad), "{bad:?}");
        }
    }
}
