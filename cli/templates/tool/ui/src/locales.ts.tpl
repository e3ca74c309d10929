/**
 * Strings of the __LABEL__ panel, registered as the i18next namespace `__ID__`.
 * Regional variants (pt-br, en-gb, en-us, es-419) fall back to their base language.
 */
export const locales: Record<string, Record<string, string>> = {
  pt: {
    title: "__LABEL__",
    empty: "Nada anotado sobre este contato ainda.",
    placeholder: "Novo item",
    add: "Adicionar",
  },
  en: {
    title: "__LABEL__",
    empty: "Nothing noted about this contact yet.",
    placeholder: "New item",
    add: "Add",
  },
  es: {
    title: "__LABEL__",
    empty: "Nada anotado sobre este contacto todavía.",
    placeholder: "Nuevo ítem",
    add: "Agregar",
  },
  de: {
    title: "__LABEL__",
    empty: "Zu diesem Kontakt ist noch nichts notiert.",
    placeholder: "Neuer Eintrag",
    add: "Hinzufügen",
  },
  fr: {
    title: "__LABEL__",
    empty: "Rien de noté sur ce contact pour l’instant.",
    placeholder: "Nouvel élément",
    add: "Ajouter",
  },
  it: {
    title: "__LABEL__",
    empty: "Niente annotato su questo contatto.",
    placeholder: "Nuovo elemento",
    add: "Aggiungi",
  },
  pl: {
    title: "__LABEL__",
    empty: "Nic jeszcze nie zanotowano o tym kontakcie.",
    placeholder: "Nowy element",
    add: "Dodaj",
  },
  ru: {
    title: "__LABEL__",
    empty: "Об этом контакте пока ничего не записано.",
    placeholder: "Новый пункт",
    add: "Добавить",
  },
};
