//! Text colours made readable: every `color: #rrggbb` of a stylesheet (the highlighting themes
//! syntect ships) darkened or lightened, keeping its hue, until it has WCAG 2.1 AA contrast
//! (4.5:1) against the background it is drawn on. Colours that have it already are kept.

use std::sync::LazyLock;

/// What the theme's code blocks are drawn on (`--code-bg` in style.css), light and dark.
pub(crate) const CODE_BG_LIGHT: (u8, u8, u8) = (0xf6, 0xf8, 0xfa);
pub(crate) const CODE_BG_DARK: (u8, u8, u8) = (0x2b, 0x30, 0x3b);
/// AA for normal text is 4.5; a little more, so that rounding never lands under it.
const MIN: f64 = 4.6;

static COLOR: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?m)(^|[\s;{])color:\s*#([0-9a-fA-F]{6})\b").expect("a valid pattern")
});

/// `css` with each text colour given at least AA contrast against `bg`.
pub(crate) fn readable(css: &str, bg: (u8, u8, u8)) -> String {
    COLOR
        .replace_all(css, |c: &regex::Captures<'_>| {
            let hex = &c[2];
            let fixed = parse(hex).map_or_else(|| hex.to_string(), |fg| format(adjust(fg, bg)));
            format!("{}color:#{fixed}", &c[1])
        })
        .into_owned()
}

fn parse(hex: &str) -> Option<(u8, u8, u8)> {
    let v = u32::from_str_radix(hex, 16).ok()?;
    Some(((v >> 16) as u8, (v >> 8) as u8, v as u8))
}

fn format((r, g, b): (u8, u8, u8)) -> String {
    format!("{r:02x}{g:02x}{b:02x}")
}

/// `fg` mixed toward black (on a light `bg`) or white (on a dark one) in small steps until it
/// contrasts enough.
fn adjust(fg: (u8, u8, u8), bg: (u8, u8, u8)) -> (u8, u8, u8) {
    let target = if luminance(bg) > 0.5 { 0.0 } else { 255.0 };
    let mix = |c: u8, t: f64| (f64::from(c) + (target - f64::from(c)) * t).round() as u8;
    for step in 0..=20 {
        let t = f64::from(step) / 20.0;
        let c = (mix(fg.0, t), mix(fg.1, t), mix(fg.2, t));
        if ratio(c, bg) >= MIN {
            return c;
        }
    }
    if target == 0.0 {
        (0, 0, 0)
    } else {
        (255, 255, 255)
    }
}

/// WCAG's relative luminance.
fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let ch = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)
}

fn ratio(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_contrast_colours_are_fixed_and_good_ones_kept() {
        let css =
            ".c {\n color: #969896;\n background-color: #ffffff;\n}\n.s { color: #183691; }\n";
        let out = readable(css, CODE_BG_LIGHT);
        assert!(out.contains("background-color: #ffffff"), "{out}");
        assert!(out.contains("color:#183691"), "kept: {out}");
        let fixed = COLOR
            .captures_iter(&out)
            .map(|c| c[2].to_string())
            .next()
            .unwrap();
        let c = parse(&fixed).unwrap();
        assert!(ratio(c, CODE_BG_LIGHT) >= 4.5, "{fixed}");
        assert!(
            ratio(c, CODE_BG_LIGHT) < 5.5,
            "no darker than needed: {fixed}"
        );
        let dark = readable(".p { color: #bf616a; }", CODE_BG_DARK);
        let c = parse(&COLOR.captures(&dark).unwrap()[2]).unwrap();
        assert!(ratio(c, CODE_BG_DARK) >= 4.5, "{dark}");
    }
}
