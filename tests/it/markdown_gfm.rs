//! Markdown as GitHub renders it, through the binary: task lists as boxes the reader cannot
//! change, alerts as callouts with their title, footnotes, and raw HTML that tries to pass for
//! either cleaned away.

use crate::common::{errbook, read};

#[test]
fn task_lists_alerts_and_footnotes_render_as_on_github() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cat");
    crate::common::init(&dir);
    let art = dir.join(crate::common::INIT_ARTICLE);
    let mut text = std::fs::read_to_string(&art).unwrap();
    text.push_str(
        "\n**Checklist:**\n\n- [x] read the traceback\n- [ ] rewrite as a loop\n\n\
         > [!CAUTION]\n> Raising the limit far can crash the interpreter[^stack].\n\n\
         > [!NOTE]\n> CPython's default is 1000.\n\n\
         [^stack]: The C stack overflows.\n\n\
         <input type=\"text\" autofocus> <div class=\"markdown-alert\" onclick=\"x()\">fake</div>\n",
    );
    std::fs::write(&art, text).unwrap();
    let out = tmp.path().join("out");
    let o = errbook()
        .arg("--root")
        .arg(&dir)
        .args(["build", "-d"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = read(
        &out,
        "articles/why-does-my-recursive-function-fail/index.html",
    );
    assert!(
        html.contains(r#"<li><input type="checkbox" disabled checked aria-label="done"> read the traceback</li>"#),
        "{html}"
    );
    assert!(html.contains(
        r#"<li><input type="checkbox" disabled aria-label="to do"> rewrite as a loop</li>"#
    ));
    assert_eq!(
        html.matches("<input").count(),
        3,
        "two boxes and the search box, no other input"
    );
    assert!(html.contains(
        "<div class=\"markdown-alert markdown-alert-caution\">\n<p class=\"markdown-alert-title\">Caution</p>"
    ));
    assert!(html.contains("<p class=\"markdown-alert-title\">Note</p>"));
    assert!(!html.contains("[!CAUTION]") && !html.contains("[!NOTE]"));
    assert!(html.contains("href=\"#fn-stack\"") && html.contains("id=\"fn-stack\""));
    assert!(!html.contains("onclick") && !html.contains("autofocus"));
    let css = read(&out, "theme/style.css");
    assert!(css.contains(".markdown-alert-caution") && css.contains("input[type=checkbox]"));
}
