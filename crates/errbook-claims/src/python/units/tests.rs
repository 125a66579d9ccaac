//! Names, units and fragments read from small programs.

use super::super::scan::scan;
use super::*;

fn free(code: &str) -> Vec<String> {
    program(&scan(code))
        .free()
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

#[test]
fn names_defined_later_or_in_functions_are_not_free() {
    let code = "import torch\nimport numpy as np\nfrom a.b import C as D, e\n\ndef f(x, *a, k=1, **kw):\n    y = x + k\n    return [z for z in y] + g(lambda q: q)\n\nclass P(Base):\n    def __init__(self, data):\n        self.d = [t.cuda() for t in data]\n\nds = P(data, labels)\nfor batch in ds:\n    inputs, labels = batch\n    print(f\"{inputs}\", key=np)\nwith open('x') as fh:\n    fh.read()\ntry:\n    pass\nexcept ValueError as err:\n    print(err)\n";
    assert_eq!(free(code), ["g", "Base", "data", "labels"]);
}

#[test]
fn fragments_and_placeholders_are_told() {
    assert!(program(&scan("    x = 1\n")).fragment.is_some());
    assert!(program(&scan("return x\n")).fragment.is_some());
    assert!(program(&scan("self.x = 1\n")).fragment.is_some());
    assert_eq!(program(&scan("x = 1\n...\ny = 2\n")).ellipsis, Some(2));
    assert_eq!(program(&scan("def f():\n    ...\n")).ellipsis, None);
    let p = program(&scan(
        "import torch.distributed as dist\nfrom os import *\n",
    ));
    assert_eq!(p.imports, ["torch", "os"]);
    assert!(p.star);
}

#[test]
fn a_unit_s_needs_and_kind() {
    let p = program(&scan("import numpy as np\ndata = np.zeros(3)\nfor b in data:\n    labels = b\nif __name__ == '__main__':\n    main()\n"));
    assert_eq!(p.units.len(), 4);
    assert_eq!(p.units[2].kind, Kind::Compound);
    assert_eq!(p.units[1].kind, Kind::Simple);
    assert_eq!(p.needs_of(1), ["np"]);
    assert!(p.main_guard);
    assert_eq!(free("import numpy as np\ndata = np.zeros(3)\nfor b in data:\n    labels = b\nif __name__ == '__main__':\n    main()\n"), ["main"]);
}
