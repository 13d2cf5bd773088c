// Runs on every page: the learner's theme before anything else is drawn.
import { applyTheme, learnerStore } from "./page.js";

applyTheme(learnerStore().load().state.settings.theme);
