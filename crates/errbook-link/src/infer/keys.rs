//! What article inference looks entries up by, on both sides: the keys (message trigrams, error
//! codes) an entry can be found by, and those an article holds. An entry whose keys an article
//! does not hold has no candidate with it.
