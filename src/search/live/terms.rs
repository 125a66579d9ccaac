//! Terms: each distinct term gets a number once, for the life of `serve`, so that what is kept
//! of every document and every posting list is numbers, not strings. A term no document uses
//! any more keeps its number (the index leaves it out: its posting list is empty).

use std::collections::HashMap;

#[derive(Default)]
pub(super) struct Terms {
    ids: HashMap<String, u32>,
    names: Vec<String>,
}

impl Terms {
    /// The number of `t`, given one if it has none yet.
    pub(super) fn id(&mut self, t: String) -> u32 {
        if let Some(&id) = self.ids.get(&t) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(t.clone());
        self.ids.insert(t, id);
        id
    }

    pub(super) fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// How many terms have a number.
    pub(super) fn len(&self) -> usize {
        self.names.len()
    }
}
