// Replaced by the search stage (search.js).
