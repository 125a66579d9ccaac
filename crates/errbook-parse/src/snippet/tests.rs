//! The snippet reader's tests: attributes, claims, needs, the network, hidden lines, located
//! errors.

use super::*;

fn snip(info: &str, body: &str) -> (Snippet, Diagnostics) {
    let text = format!("**Example 1: Bad**\n\n```{info}\n{body}```\n");
    let src: Arc<str> = Arc::from(text.as_str());
    let blocks = collect_blocks(&src, 0, src.len());
    let mut d = Diagnostics::default();
    let s = to_snippet(0, &blocks[0], Path::new("a.md"), &src, 300, &mut d);
    (s, d)
}

#[test]
fn plain_block_is_not_runnable() {
    let (s, d) = snip("python", "x = 1\n");
    assert!(s.run.is_none());
    assert!(d.items.is_empty());
    assert_eq!(s.label.as_deref(), Some("Example 1: Bad"));
}

#[test]
fn claim_with_exception_and_fragment() {
    let (s, d) = snip(
        r#"python run expect=RuntimeError match="Cannot re-initialize CUDA" gpus=2 timeout=2m env=A=b id=ex1"#,
        "x\n",
    );
    assert!(d.items.is_empty(), "{:?}", d.items);
    let r = s.run.unwrap();
    assert_eq!(
        r.claim,
        Claim::Fails {
            exception: Some("RuntimeError".into()),
            message: Some("Cannot re-initialize CUDA".into())
        }
    );
    assert_eq!((r.gpus, r.timeout_s), (2, 120));
    assert_eq!(r.env, vec![("A".to_string(), "b".to_string())]);
    assert_eq!(s.id, "ex1");
}

#[test]
fn network_is_declared_alone_and_makes_the_block_runnable() {
    let (s, d) = snip("python network", "x\n");
    assert!(d.items.is_empty(), "{:?}", d.items);
    assert!(s.run.unwrap().network);
    let (s, _) = snip("python run", "x\n");
    assert!(!s.run.unwrap().network);
    let (_, d) = snip("python run network=yes", "x\n");
    assert!(d.items[0].message.contains("`network` takes no value"));
}

#[test]
fn needs_and_gpu_memory_are_read_and_checked() {
    let (s, d) = snip("python run needs=torch,numpy,torch gpu_mem=1.5GiB", "x\n");
    assert!(d.items.is_empty(), "{:?}", d.items);
    let r = s.run.unwrap();
    assert_eq!(r.needs, ["torch", "numpy"]);
    assert_eq!(r.gpu_mem_mib, Some(1536));
    let (s, _) = snip("python needs=torch", "x\n");
    assert!(s.run.is_some(), "a need makes the block runnable");
    let (_, d) = snip("python run needs=torch,9lives gpu_mem=lots", "x\n");
    let msgs: Vec<&str> = d.items.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs[0].contains("`9lives` is not a Python module name"),
        "{msgs:?}"
    );
    assert!(
        msgs[1].contains("`gpu_mem` must be an amount of memory"),
        "{msgs:?}"
    );
    assert_eq!(parse_mib("500MiB"), Some(500));
    assert_eq!(parse_mib("2G"), Some(2048));
    assert_eq!(parse_mib("3000"), Some(3000));
    for bad in ["", "GiB", "-1G", "1.2.3G", "5 parsecs", "0"] {
        assert_eq!(parse_mib(bad), None, "{bad}");
    }
}

#[test]
fn hidden_lines_run_but_are_not_shown() {
    let (s, _) = snip("python run", "#@ import os\nprint(os.getpid())\n");
    assert_eq!(s.code, "import os\nprint(os.getpid())\n");
    assert_eq!(s.shown(), "print(os.getpid())\n");
}

#[test]
fn unknown_attribute_is_located_with_hint() {
    let (_, d) = snip("python run expekt=ok", "x\n");
    let e = &d.items[0];
    assert!(e.message.contains("expekt"));
    assert_eq!((e.line, e.col), (3, 15));
    assert!(e.hint.as_deref().unwrap().contains("did you mean `expect`"));
}
