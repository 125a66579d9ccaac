//! The words a page claims with: cues that present a block as failing or as working, each with
//! a weight; words that turn a cue around ("not", "avoids"); hedges; phrases that only name
//! errors ("error handling"). General English of technical writing, not any one page's words.

/// A cue: a pattern (case-insensitive), the way it points and its weight.
pub(crate) struct Cue {
    pub pattern: &'static str,
    /// true: the block fails; false: it runs.
    pub fails: bool,
    pub weight: f32,
}

const fn c(pattern: &'static str, fails: bool, weight: f32) -> Cue {
    Cue {
        pattern,
        fails,
        weight,
    }
}

pub(crate) const CUES: &[Cue] = &[
    // Working, said as a failure denied; listed first so that it wins over the failure's word.
    c(
        r"\b(will|would|does|did|should|can) (not|never) (\w+ )?(fail|raise|throw|error|crash)\b",
        false,
        2.0,
    ),
    // Failing.
    c(r"\bproblematic\b", true, 2.0),
    c(r"\bincorrect(ly)?\b", true, 2.0),
    c(r"\bwrong(ly)?\b", true, 2.0),
    c(r"\bflawed\b", true, 2.0),
    c(r"\bbroken\b", true, 2.0),
    c(r"\bbuggy\b", true, 2.0),
    c(r"\berroneous\b", true, 2.0),
    c(r"\berror[- ]prone\b", true, 2.0),
    c(r"\bfaulty\b", true, 2.0),
    c(r"\bfail(s|ed|ing)?\b", true, 2.0),
    c(r"\bruns? out of memory\b", true, 2.0),
    c(r"\b(do|does|did|would|will) not fit\b", true, 1.5),
    c(r"\bout of memory\b", true, 1.2),
    c(r"\bfailures?\b", true, 0.8),
    c(r"\bcrash(es|ed|ing)?\b", true, 2.0),
    c(
        r"\b(raises|raised|raising|throws|thrown|throwing)\b",
        true,
        1.5,
    ),
    c(r"\bwill (\w+ )?(raise|throw|error)\b", true, 2.0),
    c(r"\bleak(s|ed|ing|y)?\b", true, 1.5),
    c(
        r"\b(is|gives|produces|hits|shows) (the|an?|this|that)\b[^.;]{0,40}\b(error|exception|failure|crash)\b",
        true,
        1.5,
    ),
    c(r"\btrigger(s|ed|ing)?\b", true, 1.2),
    c(r"\breproduc(e|es|ed|ing|tion)\b", true, 1.5),
    c(
        r"\b(mistakes?|pitfalls?|anti-?patterns?|gotchas?)\b",
        true,
        1.5,
    ),
    c(r"\bnaive(ly)?\b", true, 1.2),
    c(r"\bbad\b", true, 1.2),
    c(r"\bunsafe\b", true, 1.5),
    c(r"\bnot (thread|fork|process)[- ]safe\b", true, 1.5),
    c(r"\bwhat not to do\b", true, 2.0),
    c(r"\b(hangs?|deadlocks?|freezes)\b", true, 1.2),
    c(r"\b(segfaults?|segmentation fault)\b", true, 1.5),
    c(r"\bbreaks\b", true, 1.0),
    c(
        r"\b(leads?|led) to\b[^.;]{0,40}\b(errors?|exceptions?|failures?|crash(es)?|race)\b",
        true,
        1.5,
    ),
    c(
        r"\bcaus(e|es|ed|ing)\b[^.;]{0,40}\b(errors?|exceptions?|failures?|crash(es)?)\b",
        true,
        1.5,
    ),
    c(
        r"\bresults? in\b[^.;]{0,40}\b(errors?|exceptions?|failures?|crash(es)?)\b",
        true,
        1.5,
    ),
    c(r"\berrors?\b", true, 0.5),
    c(r"\bexceptions?\b", true, 0.4),
    c(r"\b(problems?|issues?|bugs?)\b", true, 0.5),
    c(r"\brace conditions?\b", true, 0.8),
    c(r"\bcorrupt(s|ed|ion)?\b", true, 1.0),
    // Working.
    c(r"\bcorrect(ed|ly)?\b", false, 2.0),
    c(r"\bfix(es|ed)?\b", false, 1.5),
    c(r"\bsolutions?\b", false, 1.5),
    c(r"\bsolv(e|es|ed|ing)\b", false, 1.5),
    c(r"\bresolv(e|es|ed|ing)\b", false, 1.5),
    c(r"\bimproved\b", false, 2.0),
    c(
        r"\bruns? (cleanly|fine|correctly|successfully|without)\b",
        false,
        2.0,
    ),
    c(r"\bworks?\b", false, 1.5),
    c(r"\b(prints|printing)\b", false, 1.5),
    c(r"\b(completes|succeeds|finishes)\b", false, 1.5),
    c(r"\b(proceeds|behaves) (normally|as expected)\b", false, 1.5),
    c(r"\bas expected\b", false, 1.2),
    c(
        r"\b(stays|remains|stay|remain) (flat|constant|bounded|stable)\b",
        false,
        1.5,
    ),
    c(r"\b(fits|fitted)\b", false, 1.5),
    c(
        r"\b(this|it|that|version|code|loop|script) (now )?runs\b",
        false,
        1.5,
    ),
    c(r"\bworking\b", false, 1.2),
    c(r"\brecommended\b", false, 1.5),
    c(r"\bbest practices?\b", false, 1.5),
    c(r"\bproper(ly)?\b", false, 1.2),
    c(r"\bright way\b", false, 2.0),
    c(r"\bsafe(ly|r)?\b", false, 1.2),
    c(r"\brobust\b", false, 1.5),
    c(r"\bbetter\b", false, 1.0),
    c(r"\bworkarounds?\b", false, 1.5),
    c(r"\balternatives?\b", false, 0.6),
    c(r"\bensur(e|es|ing)\b", false, 0.8),
    c(r"\bguarantee(s|d)?\b", false, 0.8),
    c(r"\bsuccess(ful|fully)?\b", false, 1.2),
    c(r"\bsuitable\b", false, 1.0),
    c(r"\beffective(ly)?\b", false, 1.0),
    c(r"\bstable\b", false, 0.8),
];

/// Labels that mean one side of a before/after pair.
pub(crate) const LABEL_BEFORE: &str = r"(?i)^\W*(before|original|the problem|problem)\b";
pub(crate) const LABEL_AFTER: &str = r"(?i)^\W*(after|fixed|the fix|solution)\b";

/// Phrases that name errors without saying the block has one: their words are no cue.
pub(crate) const NEUTRAL: &[&str] = &[
    r"(?i)\berror[- ]handling\b",
    r"(?i)\bhandl(e|es|ed|ing)\b[^.;]{0,30}\b(errors?|exceptions?|failures?)\b",
    r"(?i)\bcatch(es|ing)?\b[^.;]{0,40}\b(errors?|exceptions?)\b",
    r"(?i)\b(error|exception) messages?\b",
    r"(?i)\btry[-/ ](except|catch)\b",
    r"(?i)\bdebug(ging)?\b[^.;]{0,20}\berrors?\b",
];

/// Words that turn any cue around ("does not fail", "not robust").
pub(crate) const NOT: &[&str] = &[
    "not",
    "no",
    "never",
    "without",
    "doesn't",
    "don't",
    "won't",
    "isn't",
    "aren't",
    "can't",
    "cannot",
    "didn't",
    "wasn't",
    "shouldn't",
    "wouldn't",
    "nor",
    "neither",
    "longer",
];

/// Words that turn a failing cue into a working one ("avoids the error", "fixes the crash").
pub(crate) const REMEDY: &[&str] = &[
    "avoid",
    "avoids",
    "avoided",
    "avoiding",
    "prevent",
    "prevents",
    "prevented",
    "preventing",
    "eliminate",
    "eliminates",
    "eliminating",
    "fix",
    "fixes",
    "fixed",
    "fixing",
    "solve",
    "solves",
    "solved",
    "solving",
    "resolve",
    "resolves",
    "resolved",
    "resolving",
    "mitigate",
    "mitigates",
    "handle",
    "handles",
    "bypass",
    "bypasses",
    "sidestep",
    "sidesteps",
    "circumvent",
    "circumvents",
    "overcome",
    "overcomes",
    "free",
    "instead",
    "rather",
];

/// Hedges and what they leave of a cue's weight.
pub(crate) const HEDGES: &[(&str, f32)] = &[
    ("may", 0.5),
    ("might", 0.5),
    ("could", 0.5),
    ("potentially", 0.5),
    ("possibly", 0.5),
    ("perhaps", 0.5),
    ("sometimes", 0.6),
    ("can", 0.5),
    ("whether", 0.3),
    ("likely", 0.85),
    ("probably", 0.85),
    ("often", 0.85),
    ("usually", 0.85),
    ("typically", 0.85),
];

/// Words that end a clause: a turn before them does not reach a cue after them.
pub(crate) const CLAUSE_ENDS: &[&str] = &[
    "but", "so", "because", "which", "while", "although", "however", "whereas", "since", "then",
    "and", "that",
];

/// A title that asks how to do something: its examples are presented as working ones.
pub(crate) const HOW_TO: &str = r"(?i)^\W*(how (to|do|can|should|would)|what is the (best|right|correct|proper) way|best way)\b";

/// A comment on a block's line that names what that line does when run: an exception and its
/// message ("# RuntimeError: ..."), or "fails", "raises", "crashes" as its first word.
pub(crate) const COMMENT_FAILS: &str = r"^\W*((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(Error|Exception)\s*:|(fails|raises|crashes|errors out|throws)\b)";

/// A sentence after a block that is about something else to come: it introduces the next
/// block ("...:") or names a remedy as a noun ("The fix is ...", "the maintainers' fix").
pub(crate) const NEXT_THING: &str = r"(?i)(:\s*$|^\W*(the|a|one|another|what|a better|the real|the usual)\b[^.]{0,20}\b(fix|fixes|solution|answer|workaround|remedy)\b|\w(s'|'s) (fix|solution|answer|workaround)\b)";

/// Words that make a sentence's cues conditional on a setup: no claim from them alone.
pub(crate) const CONDITIONAL: &str = r"(?i)\b(depends on|depending on|on some (setups|systems|machines|cards)|in a container|on older|on newer)\b";

/// A sentence after a block that speaks of the block itself: "This ...", "It ...".
pub(crate) const SUBJECT_IS_BLOCK: &str = r"(?i)^\W*(this|it|that|the (code|loop|script|snippet|program|version|example|call)|with [^,.]{1,60},? this)\b";
