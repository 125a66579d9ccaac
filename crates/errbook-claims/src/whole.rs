//! Make a block whole as a reader would: the names it uses that it does not define come from the
//! earlier blocks of the page that define them (nearest first; a simple definition before one
//! inside a loop or `if`; "as in Example 1" points at that example first), each with what it in
//! turn needs, in the page's order. A name no block defines, or `...` standing for code, leaves
//! the block not runnable, with the reason.

use super::python::units::{Kind, Program};
use super::python::words::STDLIB;
use std::collections::BTreeSet;

/// One block of the page as the page's Python.
pub(crate) struct Block<'a> {
    pub code: &'a str,
    pub program: Option<Program>,
    /// The example number its label gives ("Example 2: ..."), if any.
    pub example: Option<u32>,
    /// "as in Example N" in its comments.
    pub refers_to: Option<u32>,
}

/// A block made whole: the definitions it runs after, or why it cannot run.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Whole {
    /// Earlier blocks it takes definitions from (0-based).
    pub continues: Vec<usize>,
    /// Their code, in page order, to run before the block.
    pub prelude: String,
    pub why_not: Option<String>,
}

/// How far one name's search reaches (statements taken in all).
const MAX_TAKEN: usize = 400;

/// Make block `k` of `blocks` whole.
pub(crate) fn whole(blocks: &[Block<'_>], k: usize) -> Whole {
    let mut w = Whole::default();
    let Some(p) = blocks[k].program.as_ref() else {
        return w;
    };
    if let Some(line) = p.ellipsis {
        w.why_not = Some(format!(
            "`...` on line {line} stands for code the text leaves out"
        ));
        return w;
    }
    if p.star {
        return w;
    }
    // Blocks to search, nearest first, the one "as in Example N" names before the rest.
    let mut order: Vec<usize> = (0..k).rev().collect();
    if let Some(n) = blocks[k].refers_to {
        if let Some(i) = order.iter().position(|&j| blocks[j].example == Some(n)) {
            let j = order.remove(i);
            order.insert(0, j);
        }
    }
    let (taken, mut missing) = resolve(blocks, &order, p.free());
    if !missing.is_empty() {
        missing.sort_by_key(|m| m.1);
        let names: Vec<String> = missing
            .iter()
            .take(4)
            .map(|(n, l)| format!("`{n}` (line {l})"))
            .collect();
        let more = if missing.len() > 4 {
            format!(" and {} more", missing.len() - 4)
        } else {
            String::new()
        };
        w.why_not = Some(format!(
            "it uses {}{more}, which no block of the page defines",
            names.join(", ")
        ));
        return w;
    }
    let mut continues: Vec<usize> = taken.iter().map(|(b, _)| *b).collect();
    continues.dedup();
    for &(b, i) in &taken {
        let Some(prog) = blocks[b].program.as_ref() else {
            continue;
        };
        let u = &prog.units[i];
        let lines: Vec<&str> = blocks[b].code.lines().collect();
        let (a, z) = (u.first.saturating_sub(1), u.last.min(lines.len()));
        for l in lines.get(a..z).unwrap_or(&[]) {
            w.prelude.push_str(l);
            w.prelude.push('\n');
        }
    }
    w.continues = continues;
    w
}

/// A name still to define: the name, the line of the block that first needs it, and the
/// statement (block, unit) that needs it when that is a definition taken from elsewhere.
type Wanted = (String, usize, Option<(usize, usize)>);

/// Statements taken, as (block, unit), in page order.
type Taken = BTreeSet<(usize, usize)>;

/// The statements (block, unit) that define `free` and what they need in turn, searching the
/// blocks in `order`; and the names no block defines, with their lines.
fn resolve(
    blocks: &[Block<'_>],
    order: &[usize],
    free: Vec<(String, usize)>,
) -> (Taken, Vec<(String, usize)>) {
    let mut taken = Taken::new();
    let mut missing: Vec<(String, usize)> = Vec::new();
    let mut todo: Vec<Wanted> = free.into_iter().map(|(n, l)| (n, l, None)).collect();
    while let Some((name, line, from)) = todo.pop() {
        if taken.len() > MAX_TAKEN {
            break;
        }
        // Within the block a taken statement came from, a definition before it first.
        let local = from.and_then(|(b, u)| {
            let units = &blocks[b].program.as_ref()?.units;
            pick(&units[..u], &name).map(|i| (b, i))
        });
        let found = local.or_else(|| {
            let simple = order.iter().find_map(|&b| {
                let units = &blocks[b].program.as_ref()?.units;
                pick_kind(units, &name, Kind::Simple).map(|i| (b, i))
            });
            simple.or_else(|| {
                order.iter().find_map(|&b| {
                    let units = &blocks[b].program.as_ref()?.units;
                    pick(units, &name).map(|i| (b, i))
                })
            })
        });
        match found {
            Some(at) if taken.contains(&at) => {}
            Some((b, i)) => {
                taken.insert((b, i));
                let Some(prog) = blocks[b].program.as_ref() else {
                    continue;
                };
                for n in prog.needs_of(i) {
                    todo.push((n, line, Some((b, i))));
                }
            }
            None => {
                if !missing.iter().any(|(n, _)| *n == name) {
                    missing.push((name, line));
                }
            }
        }
    }
    (taken, missing)
}

/// The last statement of `units` that binds `name`, a simple one before a compound one.
fn pick(units: &[super::python::units::Unit], name: &str) -> Option<usize> {
    pick_kind(units, name, Kind::Simple).or_else(|| pick_kind(units, name, Kind::Compound))
}

fn pick_kind(units: &[super::python::units::Unit], name: &str, kind: Kind) -> Option<usize> {
    units
        .iter()
        .rposition(|u| u.kind == kind && u.binds.iter().any(|b| b == name))
}

/// The modules a run needs from its host: what it imports, the standard library left out.
pub(crate) fn needs(imports: &[String]) -> Vec<String> {
    imports
        .iter()
        .filter(|m| !STDLIB.contains(&m.as_str()))
        .cloned()
        .collect()
}

/// GPUs the code needs: one where it uses CUDA; as many as its processes where it spawns one
/// process per GPU (`world_size = 2` with `mp.spawn`, `set_device(rank)`, NCCL).
pub(crate) fn gpus(code: &str) -> u32 {
    let cuda = [
        ".cuda(",
        "'cuda",
        "\"cuda",
        "torch.cuda.",
        "device_count()",
        "nccl",
        "set_device(",
    ];
    if !cuda.iter().any(|c| code.contains(c)) {
        return 0;
    }
    let per_rank = code.contains("set_device(rank")
        || code.contains("cuda(rank")
        || code.contains("cuda:{rank")
        || code.contains("'nccl'")
        || code.contains("\"nccl\"");
    let spawns = code.contains("spawn(") || code.contains("DistributedDataParallel");
    if per_rank && spawns {
        let n = literal_after(code, "world_size = ")
            .or_else(|| {
                literal_after(code, "world_size=")
                    .filter(|_| !code.contains("world_size=world_size"))
            })
            .or_else(|| literal_after(code, "nprocs="));
        if let Some(n) = n {
            return n.clamp(1, 8);
        }
    }
    let explicit = (1..8u32).rev().find(|i| {
        code.contains(&format!("cuda:{i}")) || code.contains(&format!("set_device({i})"))
    });
    explicit.map_or(1, |i| i + 1)
}

/// The whole number written right after `key`, if one is.
fn literal_after(code: &str, key: &str) -> Option<u32> {
    let i = code.find(key)? + key.len();
    let digits: String = code[i..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::super::python::{scan::scan, units::program};
    use super::*;

    fn blocks<'a>(codes: &[&'a str]) -> Vec<Block<'a>> {
        codes
            .iter()
            .enumerate()
            .map(|(i, c)| Block {
                code: c,
                program: Some(program(&scan(c))),
                example: Some(i as u32 + 1),
                refers_to: None,
            })
            .collect()
    }

    #[test]
    fn a_block_runs_after_the_definitions_it_needs() {
        let one = "import numpy as np\ndata = np.zeros(3)\nlabels = np.ones(3)\nds = list(zip(data, labels))\nfor b in ds:\n    x, labels = b\n    crash()\n";
        let two = "loader = iter(ds)\n";
        let three = "print(data, labels)\n";
        let b = blocks(&[one, one, two, three]);
        let w = whole(&b[..3], 2);
        assert_eq!(w.continues, [1]);
        assert_eq!(w.prelude, "import numpy as np\ndata = np.zeros(3)\nlabels = np.ones(3)\nds = list(zip(data, labels))\n");
        let w = whole(&b, 3);
        assert_eq!(
            w.prelude, "import numpy as np\ndata = np.zeros(3)\nlabels = np.ones(3)\n",
            "a simple definition before a loop's"
        );
        let lone = blocks(&["print(nowhere)\n"]);
        assert!(whole(&lone, 0)
            .why_not
            .unwrap()
            .contains("`nowhere` (line 1)"));
        let dots = blocks(&["x = 1\n...\n"]);
        assert!(whole(&dots, 0).why_not.unwrap().contains("`...` on line 2"));
    }

    #[test]
    fn gpus_from_the_code() {
        assert_eq!(gpus("x = 1"), 0);
        assert_eq!(gpus("x.cuda()"), 1);
        assert_eq!(gpus("torch.cuda.set_device(rank)\ndist.init_process_group(backend='nccl')\nworld_size = 2\nmp.spawn(w, nprocs=world_size)"), 2);
        assert_eq!(
            gpus("torch.cuda.set_device(index % torch.cuda.device_count())\nProcess(target=f)"),
            1
        );
        assert_eq!(
            needs(&["torch".into(), "os".into(), "numpy".into()]),
            ["torch", "numpy"]
        );
    }
}
