// Favourite animals: a set of ids kept in the browser under the site's own key.
import { storageKey } from "./storage.js";

/** Reads the favourites; damaged data reads as none. */
export function loadFavorites(backend, siteId) {
  try {
    const raw = backend.getItem(storageKey(siteId, "favorites"));
    const list = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(list) ? list.filter((id) => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

/** Saves the favourites (sorted, so the stored value is stable); false when storage refused. */
export function saveFavorites(backend, siteId, favorites) {
  try {
    backend.setItem(storageKey(siteId, "favorites"), JSON.stringify([...favorites].sort()));
    return true;
  } catch {
    return false;
  }
}

/** Adds or removes `id`; returns whether it is a favourite now. */
export function toggleFavorite(favorites, id) {
  if (favorites.has(id)) {
    favorites.delete(id);
    return false;
  }
  favorites.add(id);
  return true;
}
