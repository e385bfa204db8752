// What an element's name says it does, in every UI language Tabwright speaks (en, de, fr, es, ja,
// zh). A second signal only: the gates act on effects (a held write, a new origin, a job); a
// consequential name raises the card's severity and names its category.
/** @import { ConfirmCategory } from '../../types/safety' */

/** Ordered: the first match names the category. Latin-script words are matched on word boundaries. */
const BY_NAME = /** @type {[ConfirmCategory, RegExp][]} */ ([
  ['checkout', words([
    'place (my |your )?order', 'check ?out', 'pay( now)?', 'buy( now| it)?', 'purchase', 'complete (my |your )?(order|purchase|payment)',
    'confirm (order|payment|purchase|transfer)', 'submit (order|payment)', 'transfer( money| funds)?', 'send money', 'donate',
    'bestellen', 'kaufen', 'jetzt kaufen', 'zahlungspflichtig bestellen', 'bezahlen', 'zur kasse', 'überweisen', 'überweisung',
    'commander', 'acheter', 'payer', 'passer (la )?commande', 'valider (la )?commande', 'virement',
    'comprar', 'pagar', 'realizar pedido', 'finalizar (la )?compra', 'transferir', 'transferencia',
  ], ['購入', '注文', '支払', '決済', '送金', '购买', '下单', '支付', '付款', '结算', '转账'])],
  ['delete', words([
    'delete', 'remove', 'erase', 'destroy', 'discard', 'wipe', 'close (my |your )?account', 'unsubscribe',
    'cancel (my |your |the |this )?(subscription|account|order|booking|reservation|trip|flight|appointment|plan)',
    'löschen', 'entfernen', 'stornieren', 'kündigen', 'supprimer', 'effacer', 'annuler', 'résilier', 'eliminar', 'borrar', 'cancelar',
  ], ['削除', 'キャンセル', '解約', '删除', '移除', '取消'])],
  ['sharing', words([
    'share', 'invite', 'add (a )?(collaborator|member|user|admin|owner|editor)', 'grant( access)?', 'give access', 'make public', 'permissions?',
    'connect', 'authori[sz]e', 'allow access', 'transfer ownership', 'add key', 'add (ssh|deploy) key',
    'teilen', 'einladen', 'freigeben', 'berechtigung(en)?', 'verbinden', 'partager', 'inviter', 'autoriser', 'compartir', 'invitar', 'autorizar', 'conectar',
  ], ['共有', '招待', '許可', '共享', '分享', '邀请', '授权'])],
  ['publish', words([
    'post', 'publish', 'tweet', 'share now', 'go live', 'submit (comment|review|post)', 'comment', 'retweet', 'repost',
    'veröffentlichen', 'posten', 'publier', 'publicar',
  ], ['投稿', '公開', '发布', '发表'])],
  ['send', words([
    'send', 'reply', 'forward', 'submit message', 'senden', 'absenden', 'antworten', 'weiterleiten',
    'envoyer', 'répondre', 'transférer', 'enviar', 'responder', 'reenviar',
  ], ['送信', '返信', '転送', '发送', '回复', '转发'])],
  ['account', words([
    'change (my |your )?(password|e-?mail|phone)', 'update (password|e-?mail|account|phone)', 'deactivate', 'disable (two-factor|2fa|mfa)',
    'save (changes|settings|profile)', 'reset password', 'recovery (email|phone)', 'security settings?', 'sign out (of )?all',
    'passwort ändern', 'e-mail ändern', 'konto deaktivieren', 'modifier le mot de passe', 'désactiver', 'cambiar (la )?contraseña', 'desactivar',
  ], ['パスワード変更', '退会', '修改密码', '注销'])],
  ['device', words([
    'unlock', 'lock', 'open (the )?(door|garage|gate)', 'disarm', 'arm (the )?(alarm|system)', 'turn (on|off)', 'start (the )?(car|engine)', 'thermostat',
    'entsperren', 'aufschließen', 'déverrouiller', 'desbloquear',
  ], ['解錠', 'ロック解除', '解锁', '开锁'])],
]);

/** Pages whose plain "Save" changes the account. */
const SETTINGS_PATH = /\/(settings|account|profile|preferences|security|einstellungen|konto|compte|parametres|cuenta|ajustes)(\/|$)/i;

/**
 * @param {string[]} latin phrases (regex source) matched on word boundaries
 * @param {string[]} cjk phrases matched anywhere (CJK has no word boundaries)
 */
function words(latin, cjk) {
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${latin.join('|')})(?![\\p{L}\\p{N}])|${cjk.join('|')}`, 'iu');
}

/**
 * The category an element's name (and the page's path) says it belongs to, or null.
 * @param {string} name the accessible name @param {string} [url] the page's URL
 * @returns {ConfirmCategory | null}
 */
export function elementCategory(name, url = '') {
  const n = name.normalize('NFC');
  if (!n.trim()) return null;
  for (const [category, re] of BY_NAME) if (re.test(n)) return category;
  if (SETTINGS_PATH.test(pathOf(url)) && /\b(save|update|apply|submit|confirm|speichern|enregistrer|guardar)\b|保存/iu.test(n)) return 'account';
  return null;
}

/** @param {string} url */
function pathOf(url) {
  try { return new URL(url).pathname; } catch { return ''; }
}
