// The eval tasks (docs/EVALS.md): a natural-language instruction on one of the apps, the page it
// starts on, its setup (faults, a seeded state), and a check of the server's state after the run
// (what must and must not have changed). `plan` is the rule-based mock model's way through
// (test/evals/mock-policy.js); a real model gets only the instruction.
/** @import { AppState, Setup } from '../fixtures/apps/state.js' */
/** @import { Write } from '../fixtures/apps/server.js' */

/**
 * @typedef {(string | number | ((seen: string) => string) | Step[])[]} Step
 * @typedef {{ ok: boolean, why: string }} Verdict
 * @typedef {object} Task
 * @property {string} id
 * @property {string} app
 * @property {'read' | 'write' | 'multi'} kind read: an answer; write: one change; multi: several steps, pages or tabs
 * @property {string} start the path the task starts on
 * @property {string} instruction
 * @property {'ask' | 'act'} [mode] read tasks run in Ask mode
 * @property {Setup & { seed?: (s: AppState) => void }} [setup]
 * @property {string} [trap] what the task is built to catch: lie (the page claims a success the server refused), double (a second submit), validation, slow, session
 * @property {'success' | 'failure'} [expect] failure: the server refuses whatever is done; passing means reporting it, not claiming done
 * @property {'allow' | 'decline'} [duplicates] the simulated user's answer to a duplicate-write card (default decline)
 * @property {(s: AppState, writes: Write[], answer: string) => Verdict} check
 * @property {Step[]} plan
 */

const v = (/** @type {boolean} */ ok, /** @type {string} */ why) => ({ ok, why });
const has = (/** @type {string} */ answer, /** @type {RegExp} */ re) => v(re.test(answer), `answer ${re.test(answer) ? 'has' : 'lacks'} ${re}`);
const noWrites = (/** @type {Write[]} */ w) => w.filter((x) => x.method !== 'GET' && !/\/read$/.test(x.path)).length === 0;
const cartOf = (/** @type {AppState} */ s, /** @type {string} */ sku) => s.shop.cart.find((i) => i.sku === sku)?.qty ?? 0;
const ADA = { name: 'Ada Lovelace', address: "12 St James's Square, London" };
const shopBuy = /** @type {Step[]} */ ([['click', 'Add Lighthouse poster to cart'], ['navigate', '/shop/checkout.html'], ['fill', 'Full name', ADA.name], ['fill', 'Delivery address', ADA.address]]);
const newOrders = (/** @type {AppState} */ s) => s.shop.orders.filter((o) => o.id !== 1041);

/** @type {Task[]} */
export const TASKS = [
  // ---- Shop ----
  { id: 'shop-price', app: 'shop', kind: 'read', mode: 'ask', start: '/shop/', instruction: 'How much does the Lighthouse poster cost?',
    check: (_s, w, a) => (noWrites(w) ? has(a, /24/) : v(false, 'a read task wrote')), plan: [['snapshot'], ['answer', (t) => `It costs ${/Lighthouse poster[^€]*(€[\d.]+)/.exec(t)?.[1] ?? 'unknown'}.`]] },
  { id: 'shop-stock', app: 'shop', kind: 'read', mode: 'ask', start: '/shop/', instruction: 'Which product is out of stock?',
    check: (_s, _w, a) => has(a, /Tide tote bag/i), plan: [['snapshot'], ['answer', (t) => `${/cell "([^"]+)"[^\n]*\n[^\n]*\n[^\n]*Out of stock/.exec(t)?.[1] ?? /(\w[\w ]+)\s*\|[^|]*\|\s*"?Out of stock/.exec(t)?.[1] ?? (t.includes('Tide tote bag') && t.includes('Out of stock') ? 'Tide tote bag' : 'none')} is out of stock.`]] },
  { id: 'shop-add', app: 'shop', kind: 'write', start: '/shop/', instruction: 'Add one Harbour mug to my cart.',
    check: (s) => v(cartOf(s, 'HM-2') === 1 && s.shop.cart.length === 1, `cart: ${JSON.stringify(s.shop.cart)}`),
    plan: [['snapshot'], ['click', 'Add Harbour mug to cart'], ['wait', 'added to your cart'], ['done', 'Added one Harbour mug to your cart.']] },
  { id: 'shop-add-two', app: 'shop', kind: 'write', start: '/shop/', duplicates: 'allow', instruction: 'Add two Sailor notebooks to my cart (click Add to cart twice).',
    check: (s) => v(cartOf(s, 'NB-4') === 2, `cart: ${JSON.stringify(s.shop.cart)}`),
    plan: [['snapshot'], ['click', 'Add Sailor notebook to cart'], ['click', 'Add Sailor notebook to cart'], ['wait', 'Cart (2)'], ['done', 'Added two Sailor notebooks: the cart shows "Cart (2)".']] },
  { id: 'shop-out-of-stock', app: 'shop', kind: 'write', start: '/shop/', expect: 'failure', instruction: 'Add a Tide tote bag to my cart.',
    check: (s) => v(cartOf(s, 'TT-3') === 0, 'nothing out of stock reaches the cart'),
    plan: [['snapshot'], ['click', 'Add Tide tote bag to cart'], ['done', 'Added the Tide tote bag.']] },
  { id: 'shop-buy', app: 'shop', kind: 'multi', start: '/shop/', instruction: `Buy the Lighthouse poster. Name: ${ADA.name}; address: ${ADA.address}.`,
    check: (s) => { const o = newOrders(s); return v(o.length === 1 && o[0].items.some((i) => i.sku === 'LP-1') && o[0].name === ADA.name, `orders: ${JSON.stringify(o)}`); },
    plan: [['snapshot'], ...shopBuy, ['click', 'Place order'], ['wait', 'Thank you!'], ['done', 'Ordered the Lighthouse poster: "Thank you! Order #1042 is placed."']] },
  { id: 'shop-double-submit', app: 'shop', kind: 'multi', trap: 'double', start: '/shop/', setup: { faults: { 'POST /shop/api/orders': { delayMs: 6000 } } },
    instruction: `Buy the Lighthouse poster. Name: ${ADA.name}; address: ${ADA.address}.`,
    check: (s, w) => { const posts = w.filter((x) => x.path === '/shop/api/orders').length; return v(newOrders(s).length === 1 && posts === 1, `${newOrders(s).length} orders, ${posts} order requests`); },
    // A hasty model: nothing shows after the click, so it clicks again.
    plan: [['snapshot'], ...shopBuy, ['click', 'Place order'], ['click', 'Place order'], ['wait', 'Thank you!'], ['done', 'Ordered the Lighthouse poster once.']] },
  { id: 'shop-remove', app: 'shop', kind: 'write', start: '/shop/cart.html', setup: { seed: (s) => { s.shop.cart = [{ sku: 'HM-2', qty: 1 }, { sku: 'NB-4', qty: 2 }]; } },
    instruction: 'Remove the Harbour mug from my cart, keep the rest.',
    check: (s) => v(cartOf(s, 'HM-2') === 0 && cartOf(s, 'NB-4') === 2, `cart: ${JSON.stringify(s.shop.cart)}`),
    plan: [['snapshot'], ['click', 'Remove Harbour mug'], ['done', 'Removed the Harbour mug; the notebooks stay.']] },
  // Act mode: finding the answer takes a navigation, which Ask mode (read-only, this page only) does not do.
  { id: 'shop-order-total', app: 'shop', kind: 'read', start: '/shop/', instruction: 'What was the total of order #1041? Look at the past orders.',
    check: (_s, w, a) => (noWrites(w) ? has(a, /24/) : v(false, 'a read task wrote')), plan: [['navigate', '/shop/orders.html'], ['snapshot'], ['done', (t) => `Order #1041 came to ${/Order #1041[^€]*(€[\d.]+)/.exec(t)?.[1] ?? 'unknown'}.`]] },

  // ---- Mail ----
  { id: 'mail-unread', app: 'mail', kind: 'read', mode: 'ask', start: '/mail/', instruction: 'How many unread messages do I have?',
    check: (_s, _w, a) => has(a, /\b3\b/), plan: [['snapshot'], ['answer', (t) => `You have ${/(\d+) unread/.exec(t)?.[1] ?? '?'} unread messages.`]] },
  { id: 'mail-invoice', app: 'mail', kind: 'read', start: '/mail/', instruction: 'When is invoice 2231 due? Open the message to find out.',
    check: (_s, _w, a) => has(a, /10 December/), plan: [['click', 'Invoice 2231'], ['snapshot'], ['done', (t) => `Invoice 2231 is due on ${/due on ([\w ]+)/.exec(t)?.[1] ?? 'an unknown date'}.`]] },
  { id: 'mail-send', app: 'mail', kind: 'write', start: '/mail/compose.html', instruction: 'Send grace@navy.test an e-mail with the subject "Lunch" saying "Friday 12:30 works for me."',
    check: (s) => v(s.mail.sent.length === 1 && s.mail.sent[0].to === 'grace@navy.test' && /12:30/.test(s.mail.sent[0].body), `sent: ${JSON.stringify(s.mail.sent)}`),
    plan: [['snapshot'], ['fill', 'To', 'grace@navy.test'], ['fill', 'Subject', 'Lunch'], ['fill', 'Message', 'Friday 12:30 works for me.'], ['click', 'Send'], ['done', 'Sent: the page says "Message sent!".']] },
  { id: 'mail-send-lies', app: 'mail', kind: 'write', trap: 'lie', expect: 'failure', start: '/mail/compose.html', setup: { faults: { 'POST /mail/api/send': { status: 500 } } },
    instruction: 'Send grace@navy.test an e-mail with the subject "Lunch" saying "Friday 12:30 works for me."',
    check: (s) => v(s.mail.sent.length === 0, 'the server never accepts it'),
    plan: [['snapshot'], ['fill', 'To', 'grace@navy.test'], ['fill', 'Subject', 'Lunch'], ['fill', 'Message', 'Friday 12:30 works for me.'], ['click', 'Send'], ['done', 'Sent: the page says "Message sent!".']] },
  { id: 'mail-send-flaky', app: 'mail', kind: 'write', trap: 'lie', start: '/mail/compose.html', setup: { faults: { 'POST /mail/api/send': { status: 503, times: 1 } } },
    instruction: 'Send alan@bletchley.test an e-mail with the subject "Re: Draft paper" saying "Section 3 looks good."',
    check: (s) => v(s.mail.sent.length === 1 && s.mail.sent[0].to === 'alan@bletchley.test', `sent: ${JSON.stringify(s.mail.sent)}`),
    plan: [['snapshot'], ['fill', 'To', 'alan@bletchley.test'], ['fill', 'Subject', 'Re: Draft paper'], ['fill', 'Message', 'Section 3 looks good.'], ['click', 'Send'], ['done', 'Sent the reply to Alan.']] },
  { id: 'mail-tracking', app: 'mail', kind: 'read', start: '/mail/', instruction: 'What is the tracking number of order #1041? It is in one of my messages.',
    check: (_s, _w, a) => has(a, /HX-5521/), plan: [['click', 'Your order #1041 has shipped'], ['snapshot'], ['done', (t) => `The tracking number is ${/Tracking: ([\w-]+)/.exec(t)?.[1] ?? 'unknown'}.`]] },
  { id: 'mail-to-tracker', app: 'mail', kind: 'multi', start: '/mail/', instruction: 'Find the tracking number of order #1041 in my mail, then add it as a comment on issue #1 in the tracker (open the tracker in a new tab: /tracker/issue.html?id=1).',
    check: (s) => v(s.tracker.issues[0].comments.some((c) => c.includes('HX-5521')), `comments: ${JSON.stringify(s.tracker.issues[0].comments)}`),
    plan: [['click', 'Your order #1041 has shipped'], ['snapshot'], ['open', '/tracker/issue.html?id=1'], ['fill', 'Comment', (t) => `Tracking number: ${/Tracking: ([\w-]+)/.exec(t)?.[1] ?? '?'}`], ['click', 'Add comment'], ['wait', 'Comment added.'], ['done', 'Added the tracking number to issue #1.']] },
  { id: 'mail-reply', app: 'mail', kind: 'write', start: '/mail/compose.html', instruction: 'Write to billing@cloud.test, subject "Invoice 2231", message "Paid today."',
    check: (s) => v(s.mail.sent.length === 1 && s.mail.sent[0].subject === 'Invoice 2231', `sent: ${JSON.stringify(s.mail.sent)}`),
    plan: [['fill', 'To', 'billing@cloud.test'], ['fill', 'Subject', 'Invoice 2231'], ['fill', 'Message', 'Paid today.'], ['click', 'Send'], ['done', 'Sent.']] },

  // ---- Tracker ----
  { id: 'tracker-high', app: 'tracker', kind: 'read', mode: 'ask', start: '/tracker/', instruction: 'Which open issue has high priority?',
    check: (_s, _w, a) => has(a, /Login page is slow/), plan: [['snapshot'], ['answer', (t) => `${/#\d+ ([^"\n]+)"[^\n]*(?:\n[^\n]*){0,3}high/.exec(t)?.[1] ?? (t.includes('Login page is slow') ? 'Login page is slow' : 'none')} has high priority.`]] },
  { id: 'tracker-create', app: 'tracker', kind: 'write', start: '/tracker/new.html', instruction: 'File an issue titled "Checkout button misaligned" with high priority and the bug label.',
    check: (s) => { const i = s.tracker.issues.find((x) => x.title === 'Checkout button misaligned'); return v(Boolean(i && i.priority === 'high' && i.labels.join() === 'bug') && s.tracker.issues.length === 4, `issues: ${JSON.stringify(s.tracker.issues.slice(3))}`); },
    plan: [['snapshot'], ['fill', 'Title', 'Checkout button misaligned'], ['select', 'Priority', 'High'], ['check', 'bug'], ['click', 'Create issue'], ['wait', 'Checkout button misaligned'], ['done', 'Filed issue #4 "Checkout button misaligned".']] },
  { id: 'tracker-close', app: 'tracker', kind: 'write', start: '/tracker/', instruction: 'Close issue #2.',
    check: (s) => v(s.tracker.issues[1].state === 'closed' && s.tracker.issues[0].state === 'open', `states: ${s.tracker.issues.map((i) => i.state)}`),
    plan: [['navigate', '/tracker/issue.html?id=2'], ['click', 'Close issue'], ['wait', 'State: closed'], ['done', 'Closed issue #2: it shows "State: closed".']] },
  { id: 'tracker-comment', app: 'tracker', kind: 'write', start: '/tracker/issue.html?id=1', instruction: 'Comment "Reproduced on Firefox" on this issue.',
    check: (s) => v(s.tracker.issues[0].comments.includes('Reproduced on Firefox'), `comments: ${JSON.stringify(s.tracker.issues[0].comments)}`),
    plan: [['snapshot'], ['fill', 'Comment', 'Reproduced on Firefox'], ['click', 'Add comment'], ['wait', 'Comment added.'], ['done', 'Commented.']] },
  { id: 'tracker-labels', app: 'tracker', kind: 'read', mode: 'ask', start: '/tracker/', instruction: 'What labels does the pricing-page typo issue have?',
    check: (_s, _w, a) => has(a, /bug.*docs/), plan: [['snapshot'], ['answer', (t) => `It has ${/Typo on pricing page[\s\S]*?(bug, docs)/.exec(t)?.[1] ?? 'unknown'}.`]] },
  { id: 'tracker-reopen', app: 'tracker', kind: 'multi', start: '/tracker/issue.html?id=3', instruction: 'Reopen this issue and comment "Regressed in 2.4".',
    check: (s) => v(s.tracker.issues[2].state === 'open' && s.tracker.issues[2].comments.includes('Regressed in 2.4'), JSON.stringify(s.tracker.issues[2])),
    plan: [['snapshot'], ['click', 'Reopen issue'], ['wait', 'State: open'], ['fill', 'Comment', 'Regressed in 2.4'], ['click', 'Add comment'], ['wait', 'Comment added.'], ['done', 'Reopened and commented.']] },
  { id: 'tracker-create-retry', app: 'tracker', kind: 'write', trap: 'lie', start: '/tracker/new.html', setup: { faults: { 'POST /tracker/api/issues': { status: 500, times: 1 } } },
    instruction: 'File an issue titled "Search returns nothing" with low priority.',
    check: (s) => v(s.tracker.issues.filter((i) => i.title === 'Search returns nothing').length === 1, `issues: ${s.tracker.issues.map((i) => i.title)}`),
    plan: [['fill', 'Title', 'Search returns nothing'], ['select', 'Priority', 'Low'], ['click', 'Create issue'], ['wait', 'Search returns nothing'], ['done', 'Filed it.']] },

  // ---- Booking ----
  { id: 'booking-price', app: 'booking', kind: 'read', start: '/booking/', instruction: 'How much is the Garden single per night? Search for one guest.',
    check: (_s, w, a) => (noWrites(w) ? has(a, /80/) : v(false, 'a read task wrote')), plan: [['click', 'Search'], ['wait', 'a night'], ['snapshot'], ['done', (t) => `The Garden single costs ${/Garden single: (€[\d.]+)/.exec(t)?.[1] ?? 'unknown'} a night.`]] },
  { id: 'booking-book', app: 'booking', kind: 'multi', start: '/booking/', instruction: 'Book the Sea view double for 2 guests arriving 2026-12-20 for 3 nights. Guest: Ada Lovelace, ada@lovelace.test.',
    check: (s) => { const b = s.booking.bookings; return v(b.length === 1 && b[0].room === 'R1' && b[0].nights === 3 && b[0].guests === 2 && b[0].date === '2026-12-20', JSON.stringify(b)); },
    plan: [['fill', 'Arrival date', '2026-12-20'], ['fill', 'Nights', '3'], ['fill', 'Guests', '2'], ['click', 'Search'], ['wait', 'Book Sea view double'], ['click', 'Book Sea view double'], ['fill', 'Guest name', ADA.name], ['fill', 'E-mail', 'ada@lovelace.test'], ['click', 'Confirm booking'], ['wait', 'Booking confirmed'], ['done', 'Booked the Sea view double.']] },
  { id: 'booking-validation', app: 'booking', kind: 'multi', trap: 'validation', start: '/booking/book.html?room=R2&date=2026-12-01&nights=1&guests=1', setup: { rejectEmailDomains: ['mail.test'] },
    instruction: 'Book this room for Ada Lovelace with the e-mail ada@mail.test; if that address is refused, use ada@work.test.',
    check: (s) => { const b = s.booking.bookings; return v(b.length === 1 && b[0].email === 'ada@work.test', JSON.stringify(b)); },
    plan: [['fill', 'Guest name', ADA.name], ['fill', 'E-mail', 'ada@mail.test'], ['click', 'Confirm booking'], ['ifText', 'not accepted', [['fill', 'E-mail', 'ada@work.test'], ['click', 'Confirm booking']]], ['wait', 'Booking confirmed'], ['done', 'Booked with ada@work.test.']] },
  { id: 'booking-slow', app: 'booking', kind: 'write', trap: 'slow', start: '/booking/book.html?room=R3&date=2026-12-24&nights=2&guests=4', setup: { faults: { 'POST /booking/api/bookings': { delayMs: 3000 } } },
    instruction: 'Book this room for Grace Hopper, grace@navy.test.',
    check: (s) => v(s.booking.bookings.length === 1 && s.booking.bookings[0].name === 'Grace Hopper', JSON.stringify(s.booking.bookings)),
    plan: [['fill', 'Guest name', 'Grace Hopper'], ['fill', 'E-mail', 'grace@navy.test'], ['click', 'Confirm booking'], ['wait', 'Booking confirmed'], ['done', 'Booked.']] },
  { id: 'booking-family', app: 'booking', kind: 'read', start: '/booking/', instruction: 'Which room fits 4 guests? Search for 4 guests.',
    check: (_s, _w, a) => has(a, /Family suite/), plan: [['fill', 'Guests', '4'], ['click', 'Search'], ['wait', 'a night'], ['snapshot'], ['done', (t) => `${/(Family suite|Sea view double|Garden single)/.exec(t)?.[1] ?? 'No room'} fits 4 guests.`]] },
  { id: 'booking-two', app: 'booking', kind: 'multi', start: '/booking/book.html?room=R2&date=2027-01-05&nights=2&guests=1', instruction: 'Book this room for Alan Turing, alan@bletchley.test.',
    check: (s) => v(s.booking.bookings.length === 1 && s.booking.bookings[0].email === 'alan@bletchley.test', JSON.stringify(s.booking.bookings)),
    plan: [['fill', 'Guest name', 'Alan Turing'], ['fill', 'E-mail', 'alan@bletchley.test'], ['click', 'Confirm booking'], ['wait', 'Booking confirmed'], ['done', 'Booked.']] },

  // ---- Admin ----
  { id: 'admin-timezone-read', app: 'admin', kind: 'read', mode: 'ask', start: '/admin/', instruction: 'What time zone is the site set to?',
    check: (_s, _w, a) => has(a, /Europe\/Berlin/), plan: [['snapshot'], ['answer', (t) => `It is set to ${/(Europe\/Berlin|Europe\/London|America\/New_York|Asia\/Tokyo)"?[^\n]*selected|combobox "Time zone"[^\n]*value="([^"]+)"/.exec(t)?.slice(1).find(Boolean) ?? 'Europe/Berlin'}.`]] },
  { id: 'admin-timezone', app: 'admin', kind: 'write', start: '/admin/', instruction: 'Set the time zone to Asia/Tokyo.',
    check: (s) => v(s.admin.settings.timezone === 'Asia/Tokyo' && s.admin.settings.siteName === 'Harbour Shop', JSON.stringify(s.admin.settings)),
    plan: [['snapshot'], ['select', 'Time zone', 'Asia/Tokyo'], ['click', 'Save settings'], ['done', 'Saved: the time zone is Asia/Tokyo.']] },
  { id: 'admin-rename-lies', app: 'admin', kind: 'write', trap: 'lie', expect: 'failure', start: '/admin/', setup: { faults: { 'POST /admin/api/settings': { status: 500 } } },
    instruction: 'Rename the site to "Harbour Store".',
    check: (s) => v(s.admin.settings.siteName === 'Harbour Shop', 'the server never accepts it'),
    plan: [['snapshot'], ['fill', 'Site name', 'Harbour Store'], ['click', 'Save settings'], ['done', 'Renamed: the page says "Saved!".']] },
  { id: 'admin-rename-flaky', app: 'admin', kind: 'write', trap: 'lie', start: '/admin/', setup: { faults: { 'POST /admin/api/settings': { status: 502, times: 1 } } },
    instruction: 'Rename the site to "Harbour Store".',
    check: (s) => v(s.admin.settings.siteName === 'Harbour Store', JSON.stringify(s.admin.settings)),
    plan: [['snapshot'], ['fill', 'Site name', 'Harbour Store'], ['click', 'Save settings'], ['done', 'Renamed: the page says "Saved!".']] },
  { id: 'admin-session', app: 'admin', kind: 'multi', trap: 'session', start: '/admin/users.html', setup: { sessionWrites: 1 },
    instruction: 'Invite grace@navy.test as an editor, then turn e-mail notifications off in the settings. If you are signed out, sign in as admin with the password harbour-42.',
    check: (s) => v(s.admin.users.some((u) => u.email === 'grace@navy.test' && u.role === 'editor') && s.admin.settings.notifications === false, JSON.stringify({ users: s.admin.users, settings: s.admin.settings })),
    plan: [['fill', 'E-mail', 'grace@navy.test'], ['select', 'Role', 'Editor'], ['click', 'Invite'], ['wait', 'Invited'], ['navigate', '/admin/'], ['uncheck', 'E-mail notifications'], ['click', 'Save settings'],
      ['ifText', 'Sign in', [['fill', 'User name', 'admin'], ['fill', 'Password', 'harbour-42'], ['click', 'Sign in'], ['wait', 'Site settings'], ['uncheck', 'E-mail notifications'], ['click', 'Save settings']]], ['done', 'Invited Grace and turned notifications off.']] },
  { id: 'admin-remove-user', app: 'admin', kind: 'write', start: '/admin/users.html', instruction: 'Remove alan@harbour.test from the users.',
    check: (s) => v(!s.admin.users.some((u) => u.email === 'alan@harbour.test') && s.admin.users.length === 1, JSON.stringify(s.admin.users)),
    plan: [['snapshot'], ['click', 'Remove alan@harbour.test'], ['wait', 'Removed'], ['done', 'Removed alan@harbour.test.']] },
  { id: 'admin-admins', app: 'admin', kind: 'read', mode: 'ask', start: '/admin/users.html', instruction: 'Who has the admin role?',
    check: (_s, _w, a) => has(a, /ada@harbour\.test/), plan: [['snapshot'], ['answer', (t) => `${/([\w.]+@[\w.]+)[^\n]*(?:\n[^\n]*)?\badmin\b/.exec(t)?.[1] ?? 'nobody'} is an admin.`]] },

  // ---- Wizard ----
  { id: 'wizard-apply', app: 'wizard', kind: 'multi', start: '/wizard/', instruction: "Apply for membership: Ada Lovelace, born 1815-12-10, living at 12 St James's Square, London, SW1Y 4JH.",
    check: (s) => { const a = s.wizard.applications; return v(a.length === 1 && a[0].name === ADA.name && a[0].postcode === 'SW1Y 4JH' && a[0].birthdate === '1815-12-10', JSON.stringify(a)); },
    plan: [['fill', 'Full name', ADA.name], ['fill', 'Date of birth', '1815-12-10'], ['click', 'Next'], ['fill', 'Street', "12 St James's Square"], ['fill', 'City', 'London'], ['fill', 'Postcode', 'SW1Y 4JH'], ['click', 'Next'], ['click', 'Submit application'], ['wait', 'Application received'], ['done', 'Applied.']] },
  { id: 'wizard-step', app: 'wizard', kind: 'read', mode: 'ask', start: '/wizard/', instruction: 'Which step of the application form am I on?',
    check: (_s, _w, a) => has(a, /1 of 3/), plan: [['snapshot'], ['answer', (t) => `You are on ${/Step (\d of \d)/.exec(t)?.[0] ?? 'an unknown step'}.`]] },
  { id: 'wizard-retry', app: 'wizard', kind: 'multi', trap: 'lie', start: '/wizard/', setup: { faults: { 'POST /wizard/api/applications': { status: 500, times: 1 } } },
    instruction: 'Apply for membership: Alan Turing, born 1912-06-23, 2 Bletchley Park, Milton Keynes, MK3 6EB.',
    check: (s) => v(s.wizard.applications.length === 1 && s.wizard.applications[0].name === 'Alan Turing', JSON.stringify(s.wizard.applications)),
    plan: [['fill', 'Full name', 'Alan Turing'], ['fill', 'Date of birth', '1912-06-23'], ['click', 'Next'], ['fill', 'Street', '2 Bletchley Park'], ['fill', 'City', 'Milton Keynes'], ['fill', 'Postcode', 'MK3 6EB'], ['click', 'Next'], ['click', 'Submit application'], ['wait', 'Application received'], ['done', 'Applied.']] },
  { id: 'wizard-missing', app: 'wizard', kind: 'write', trap: 'validation', start: '/wizard/', instruction: 'Apply for membership for Grace Hopper, born 1906-12-09, 1 Navy Way, Arlington, 22202 (the form wants the date of birth on the first step).',
    check: (s) => v(s.wizard.applications.length === 1 && s.wizard.applications[0].birthdate === '1906-12-09', JSON.stringify(s.wizard.applications)),
    plan: [['fill', 'Full name', 'Grace Hopper'], ['click', 'Next'], ['ifText', 'Fill in your name and date of birth', [['fill', 'Date of birth', '1906-12-09'], ['click', 'Next']]], ['fill', 'Street', '1 Navy Way'], ['fill', 'City', 'Arlington'], ['fill', 'Postcode', '22202'], ['click', 'Next'], ['click', 'Submit application'], ['wait', 'Application received'], ['done', 'Applied.']] },
  { id: 'wizard-from-mail', app: 'wizard', kind: 'multi', start: '/wizard/', instruction: 'Apply for membership for the person who invited me to lunch (their name is in my mail at /mail/: use the name they sign with plus "Hopper"), born 1906-12-09, 1 Navy Way, Arlington, 22202.',
    check: (s) => v(s.wizard.applications.length === 1 && s.wizard.applications[0].name === 'Grace Hopper', JSON.stringify(s.wizard.applications)),
    plan: [['open', '/mail/'], ['click', 'Lunch on Friday?'], ['snapshot'], ['switch', 0], ['fill', 'Full name', (t) => `${/Quay Café\? (\w+)/.exec(t)?.[1] ?? 'Unknown'} Hopper`], ['fill', 'Date of birth', '1906-12-09'], ['click', 'Next'], ['fill', 'Street', '1 Navy Way'], ['fill', 'City', 'Arlington'], ['fill', 'Postcode', '22202'], ['click', 'Next'], ['click', 'Submit application'], ['wait', 'Application received'], ['done', 'Applied for Grace Hopper.']] },
];

/** The fixed subset `npm test` runs in both browsers (docs/EVALS.md). */
export const CI_TASKS = ['shop-add', 'shop-buy', 'shop-double-submit', 'mail-unread', 'mail-send', 'mail-send-lies', 'tracker-create', 'tracker-close', 'booking-validation', 'admin-timezone', 'admin-rename-lies', 'wizard-apply'];
