/**
 * Strings of the __LABEL__ channel's form, registered as the i18next namespace `__ID__`.
 * All 12 catalogues: regional variants (pt-br, en-gb, en-us, es-419) share their base language's strings.
 */
const pt: Record<string, string> = {
  intro: "Informe o token da conta no provedor. Ele fica guardado no servidor e nunca volta para a tela.",
  token: "Token",
  tokenKept: "•••••• (salvo; digite para trocar)",
  tokenRequired: "O campo token é obrigatório",
  apiBase: "Endereço da API",
  apiBaseHint: "A URL base da API do provedor.",
  urlInvalid: "Informe uma URL http(s) válida",
};
const en: Record<string, string> = {
  intro: "Enter the account's token at the provider. It stays on the server and never comes back to the screen.",
  token: "Token",
  tokenKept: "•••••• (saved; type to replace)",
  tokenRequired: "The token field is required",
  apiBase: "API address",
  apiBaseHint: "The provider's API base URL.",
  urlInvalid: "Enter a valid http(s) URL",
};
const es: Record<string, string> = {
  intro: "Ingrese el token de la cuenta en el proveedor. Queda en el servidor y nunca vuelve a la pantalla.",
  token: "Token",
  tokenKept: "•••••• (guardado; escriba para cambiar)",
  tokenRequired: "El campo token es obligatorio",
  apiBase: "Dirección de la API",
  apiBaseHint: "La URL base de la API del proveedor.",
  urlInvalid: "Ingrese una URL http(s) válida",
};
const de: Record<string, string> = {
  intro: "Geben Sie das Token des Kontos beim Anbieter ein. Es bleibt auf dem Server und wird nie wieder angezeigt.",
  token: "Token",
  tokenKept: "•••••• (gespeichert; zum Ändern tippen)",
  tokenRequired: "Das Feld Token ist erforderlich",
  apiBase: "API-Adresse",
  apiBaseHint: "Die Basis-URL der Anbieter-API.",
  urlInvalid: "Geben Sie eine gültige http(s)-URL ein",
};
const fr: Record<string, string> = {
  intro: "Saisissez le jeton du compte chez le fournisseur. Il reste sur le serveur et n'est jamais réaffiché.",
  token: "Jeton",
  tokenKept: "•••••• (enregistré ; saisissez pour remplacer)",
  tokenRequired: "Le champ jeton est obligatoire",
  apiBase: "Adresse de l'API",
  apiBaseHint: "L'URL de base de l'API du fournisseur.",
  urlInvalid: "Saisissez une URL http(s) valide",
};
const it: Record<string, string> = {
  intro: "Inserisci il token dell'account presso il provider. Resta sul server e non viene più mostrato.",
  token: "Token",
  tokenKept: "•••••• (salvato; digita per cambiare)",
  tokenRequired: "Il campo token è obbligatorio",
  apiBase: "Indirizzo dell'API",
  apiBaseHint: "L'URL di base dell'API del provider.",
  urlInvalid: "Inserisci un URL http(s) valido",
};
const pl: Record<string, string> = {
  intro: "Podaj token konta u dostawcy. Zostaje na serwerze i nigdy nie wraca na ekran.",
  token: "Token",
  tokenKept: "•••••• (zapisany; wpisz, aby zmienić)",
  tokenRequired: "Pole token jest wymagane",
  apiBase: "Adres API",
  apiBaseHint: "Bazowy adres URL API dostawcy.",
  urlInvalid: "Podaj poprawny adres http(s)",
};
const ru: Record<string, string> = {
  intro: "Укажите токен аккаунта у провайдера. Он хранится на сервере и больше не показывается.",
  token: "Токен",
  tokenKept: "•••••• (сохранён; введите, чтобы заменить)",
  tokenRequired: "Поле «токен» обязательно",
  apiBase: "Адрес API",
  apiBaseHint: "Базовый URL API провайдера.",
  urlInvalid: "Укажите корректный URL http(s)",
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
