// Favourite animals: a sorted list of ids in the learner's state (schema v2;
// v1 kept them under their own key, which storage.js migrates).

/**
 * Whether `id` is a favourite.
 * @param {{favorites: string[]}} state
 * @param {string} id
 */
export function isFavorite(state, id) {
  return state.favorites.includes(id);
}

/**
 * The state with `id` added to or removed from the favourites.
 * @template {{favorites: string[]}} S
 * @param {S} state
 * @param {string} id
 * @param {boolean} on
 * @returns {S}
 */
export function setFavorite(state, id, on) {
  const set = new Set(state.favorites);
  if (on) set.add(id);
  else set.delete(id);
  return { ...state, favorites: [...set].sort() };
}
