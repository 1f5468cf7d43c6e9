// Registers every feature's texts, as `main.tsx` does before the first render.
import '../app/i18n';
