//! The hash of a run: everything that decides what runs (the code of the continuation chain with
//! hidden lines and, for a block read from the text, the definitions it runs after; the
//! attributes; the interpreter). Records are keyed by it; a snippet whose hash has no record is
//! missing, or stale when an older record exists. The claim is not in it: a record keeps what
//! happened, and the verdict against the claim is made when the site is built (`judge`), so a
//! better reading or an edited claim needs no rerun. Records of the first scheme, which hashed
//! the claim too, are found by `legacy_hash_of` while their block and claim are unchanged.
//! What a run needs of its host (`needs=` modules, `gpu_mem=`) is not in it: declaring a need
//! changes where and beside what a run happens, not what it does, so records stay fresh.

use errbook_core::model::{RunSpec, Snippet};
use sha2::{Digest, Sha256};

/// Bump when the meaning of a hash changes (what goes into it, how programs are assembled).
const SCHEME: &str = "errbook-verify-2";
/// The first scheme: the claim was part of the run.
const LEGACY_SCHEME: &str = "errbook-verify-1";

/// The snippets a runnable snippet's program is made of: its `after=` ancestors, oldest first,
/// then itself. A broken or cyclic chain stops where it breaks (`check` reports it).
pub fn chain<'a>(page_snippets: &'a [Snippet], s: &'a Snippet) -> Vec<&'a Snippet> {
    let mut out = vec![s];
    let mut cur = s;
    while let Some(after) = cur.run.as_ref().and_then(|r| r.after.as_deref()) {
        let Some(prev) = page_snippets[..cur.index.min(page_snippets.len())]
            .iter()
            .rev()
            .find(|p| p.id == after)
        else {
            break;
        };
        if out.iter().any(|o| std::ptr::eq(*o, prev)) {
            break;
        }
        out.push(prev);
        cur = prev;
    }
    out.reverse();
    out
}

/// The program a chain runs: the code of each block in order (hidden setup lines included).
pub fn program(chain: &[&Snippet]) -> String {
    let mut p = String::new();
    for s in chain {
        p.push_str(&s.code);
        if !p.ends_with('\n') {
            p.push('\n');
        }
    }
    p
}

/// The environment a chain runs with: variables of the ancestors, then the snippet's own (later
/// wins), the most GPUs and GPU memory any block of the chain needs, and every module any block
/// needs (once each, in order).
pub fn effective(chain: &[&Snippet]) -> Option<RunSpec> {
    let last = chain.last()?.run.clone()?;
    let mut env: Vec<(String, String)> = Vec::new();
    let mut needs: Vec<String> = Vec::new();
    let (mut gpus, mut gpu_mem_mib) = (last.gpus, last.gpu_mem_mib);
    let mut network = last.network;
    for r in chain.iter().filter_map(|s| s.run.as_ref()) {
        gpus = gpus.max(r.gpus);
        gpu_mem_mib = gpu_mem_mib.max(r.gpu_mem_mib);
        network |= r.network;
        for (k, v) in &r.env {
            env.retain(|(ek, _)| ek != k);
            env.push((k.clone(), v.clone()));
        }
        for m in &r.needs {
            if !needs.contains(m) {
                needs.push(m.clone());
            }
        }
    }
    Some(RunSpec {
        gpus,
        env,
        network,
        needs,
        gpu_mem_mib,
        ..last
    })
}

/// Hex SHA-256 of what decides the run of `s` (see the module comment). Empty for a snippet that
/// is not runnable.
pub fn hash_of(page_snippets: &[Snippet], s: &Snippet) -> String {
    digest(page_snippets, s, false)
}

/// The hash records of the first scheme carry for `s` as it is now (its claim hashed with the
/// run); empty for a snippet that is not runnable.
pub fn legacy_hash_of(page_snippets: &[Snippet], s: &Snippet) -> String {
    digest(page_snippets, s, true)
}

fn digest(page_snippets: &[Snippet], s: &Snippet, legacy: bool) -> String {
    let ch = chain(page_snippets, s);
    let Some(spec) = effective(&ch) else {
        return String::new();
    };
    let mut h = Sha256::new();
    let mut field = |name: &str, value: &str| {
        h.update(name.as_bytes());
        h.update((value.len() as u64).to_le_bytes());
        h.update(value.as_bytes());
    };
    field("scheme", if legacy { LEGACY_SCHEME } else { SCHEME });
    for b in &ch {
        field("code", &b.code);
    }
    field("lang", &s.lang);
    field("interpreter", &spec.interpreter);
    field("gpus", &spec.gpus.to_string());
    field("timeout", &spec.timeout_s.to_string());
    // Hashed only when declared, so that records made before the attribute existed stay fresh.
    if spec.network {
        field("network", "yes");
    }
    for (k, v) in &spec.env {
        field("env", &format!("{k}={v}"));
    }
    if legacy {
        field(
            "claim",
            &serde_json::to_string(&spec.claim).unwrap_or_default(),
        );
    }
    let d = h.finalize();
    d.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use errbook_core::model::Claim;

    fn snip(index: usize, id: &str, code: &str, after: Option<&str>) -> Snippet {
        Snippet {
            index,
            id: id.into(),
            lang: "python".into(),
            info: "python run".into(),
            code: code.into(),
            display: None,
            line: 1,
            label: None,
            reading: None,
            run: Some(RunSpec {
                claim: Claim::Runs,
                gpus: 0,
                env: vec![],
                timeout_s: 60,
                after: after.map(String::from),
                interpreter: "python3".into(),
                network: false,
                needs: vec![],
                gpu_mem_mib: None,
            }),
        }
    }

    #[test]
    fn chain_and_hash_follow_ancestors() {
        let a = snip(0, "a", "x = 1\n", None);
        let b = snip(1, "b", "print(x)\n", Some("a"));
        let page = vec![a.clone(), b.clone()];
        let ch = chain(&page, &page[1]);
        assert_eq!(program(&ch), "x = 1\nprint(x)\n");
        let h1 = hash_of(&page, &page[1]);
        let mut changed = page.clone();
        changed[0].code = "x = 2\n".into();
        assert_ne!(
            h1,
            hash_of(&changed, &changed[1]),
            "ancestor code is hashed"
        );
        let mut claim = page.clone();
        claim[1].run.as_mut().unwrap().claim = Claim::Fails {
            exception: None,
            message: None,
        };
        assert_eq!(h1, hash_of(&claim, &claim[1]), "the claim is not hashed");
        assert_ne!(
            legacy_hash_of(&page, &page[1]),
            legacy_hash_of(&claim, &claim[1]),
            "the first scheme hashed it"
        );
        assert_ne!(h1, legacy_hash_of(&page, &page[1]));
        let mut net = page.clone();
        net[0].run.as_mut().unwrap().network = true;
        assert_ne!(h1, hash_of(&net, &net[1]), "a declared network is hashed");
        assert!(
            effective(&chain(&net, &net[1])).unwrap().network,
            "and inherited"
        );
        assert_eq!(h1, hash_of(&page, &page[1]), "deterministic");
        // What a run needs of its host is no part of it: declaring it keeps records fresh.
        let mut needs = page.clone();
        let spec = needs[0].run.as_mut().unwrap();
        spec.needs = vec!["torch".into()];
        spec.gpu_mem_mib = Some(2048);
        assert_eq!(h1, hash_of(&needs, &needs[1]));
        let eff = effective(&chain(&needs, &needs[1])).unwrap();
        assert_eq!(
            eff.needs,
            ["torch"],
            "a continuation needs what it continues"
        );
        assert_eq!(eff.gpu_mem_mib, Some(2048));
        assert_eq!(h1.len(), 64);
    }
}
