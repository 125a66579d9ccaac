//! The seed articles as written (this repository's content/articles): each example's claim and
//! the program it runs as, continuations included.

use errbook_core::model::{Claim, Snippet};
use std::path::PathBuf;

fn snippets_of(name: &str) -> Vec<Snippet> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../content/articles")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the seed article is in content/articles");
    let (parsed, _) = errbook_parse::parse_file(
        &errbook_parse::load::SourceFile {
            path: PathBuf::from("content/articles").join(name),
            kind: errbook_core::model::PageKind::Article,
            text: text.into(),
        },
        300,
    );
    match parsed {
        errbook_parse::Parsed::Article(a) => a.snippets.clone(),
        _ => panic!("the article parses"),
    }
}

#[test]
fn data_generation_as_in_example_1_runs_before_example_2() {
    let s = snippets_of("why-does-torchutilsdatadataloader-with-cuda-and-numworkers-.md");
    let fails = Claim::Fails {
        exception: None,
        message: None,
    };
    assert_eq!(s[0].run.as_ref().unwrap().claim, fails);
    assert_eq!(s[1].run.as_ref().unwrap().claim, Claim::Runs);
    let code = &s[1].code;
    assert!(code.starts_with("import torch\n"), "{code}");
    assert!(code.contains("dataset = TensorDataset("), "{code}");
    assert!(
        !code.contains("inputs = inputs.cuda() # This line often"),
        "Example 1's loop is not run: {code}"
    );
    assert_eq!(s[1].display.as_deref(), Some(s[1].shown()));
    let three = &s[2].code;
    assert!(
        three.contains("labels = np.random.randint(0, 10, 1000)\n"),
        "{three}"
    );
    assert!(!three.contains("dataset = TensorDataset"), "{three}");
}
