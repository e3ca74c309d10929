/**
 * Strings of the __LABEL__ side panel, registered as the i18next namespace `__ID__`.
 * All 12 catalogues: regional variants (pt-br, en-gb, en-us, es-419) share their base language's strings.
 */
const pt: Record<string, string> = {
  title: "__LABEL__",
  empty: "Nada anotado neste atendimento ainda.",
  placeholder: "Novo item",
  add: "Adicionar",
};
const en: Record<string, string> = {
  title: "__LABEL__",
  empty: "Nothing noted on this conversation yet.",
  placeholder: "New item",
  add: "Add",
};
const es: Record<string, string> = {
  title: "__LABEL__",
  empty: "Nada anotado en esta atención todavía.",
  placeholder: "Nuevo ítem",
  add: "Agregar",
};
const de: Record<string, string> = {
  title: "__LABEL__",
  empty: "Zu diesem Gespräch ist noch nichts notiert.",
  placeholder: "Neuer Eintrag",
  add: "Hinzufügen",
};
const fr: Record<string, string> = {
  title: "__LABEL__",
  empty: "Rien de noté sur cette conversation pour l'instant.",
  placeholder: "Nouvel élément",
  add: "Ajouter",
};
const it: Record<string, string> = {
  title: "__LABEL__",
  empty: "Niente annotato in questa conversazione.",
  placeholder: "Nuovo elemento",
  add: "Aggiungi",
};
const pl: Record<string, string> = {
  title: "__LABEL__",
  empty: "Nic jeszcze nie zanotowano w tej rozmowie.",
  placeholder: "Nowy element",
  add: "Dodaj",
};
const ru: Record<string, string> = {
  title: "__LABEL__",
  empty: "По этому обращению пока ничего не записано.",
  placeholder: "Новый пункт",
  add: "Добавить",
};

export const locales: Record<string, Record<string, string>> = {
  pt,
  'pt-br': pt,
  en,
  'en-gb': en,
  'en-us': en,
  es,
  'es-419': es,
  de,
  fr,
  it,
  pl,
  ru,
};
