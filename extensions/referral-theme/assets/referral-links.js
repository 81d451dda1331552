/*
 * Referral Bridge: a signed-in customer's share links (app block).
 * Fetches /apps/referrals/links (the app proxy, same origin) and renders one card
 * per campaign: name, description, the link with a Copy button, email and social
 * share links and, when enabled, earnings and balances. All texts arrive through
 * data-text-* attributes (locales/en.default.json); the service's data is only
 * ever written with textContent or as attribute values.
 *
 * The app formats the amounts (the request names the storefront's locale and the
 * shop's currency), so the page makes no Intl.NumberFormat: a page's first one
 * loads the browser's number data, one long task on a phone. An app too old to
 * format them gets its amounts shown as they came, with the currency's code.
 */
(() => {
  'use strict';

  const SOCIAL = {
    x: (url, text) => `https://x.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`,
    facebook: (url) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`,
    linkedin: (url) => `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`,
  };
  const FEEDBACK_MS = 2000;
  let counter = 0;

  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  };
  const str = (value) => (value == null ? '' : String(value).trim());
  const flag = (value) => value === true || value === 1 || value === '1' || value === 'true';

  class ReferralLinks {
    constructor(root) {
      this.root = root;
      this.t = root.dataset;
      this.status = root.querySelector('[data-referral-status]');
    }

    say(message) {
      this.status.textContent = message || '';
      this.status.hidden = !message;
    }

    money(value, shown) {
      return shown != null ? str(shown) : `${str(value)} ${str(this.t.currency)}`.trim();
    }

    points(value, pointName, shown) {
      return `${str(shown) || str(value) || '0'} ${str(pointName) || this.t.textPoints}`;
    }

    load() {
      this.root.setAttribute('aria-busy', 'true');
      const ask = this.t.locale && this.t.currency ? `?${new URLSearchParams({ locale: this.t.locale, currency: this.t.currency })}` : '';
      fetch(this.t.endpoint + ask, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        // The body is read even on an error status, so the connection is released.
        .then((response) =>
          response.json().then((body) => {
            if (!response.ok) throw new Error(`HTTP ${response.status}`);
            return body;
          }),
        )
        .then((data) => this.render(data || {}))
        .catch(() => this.say(this.t.textError))
        .then(() => this.root.removeAttribute('aria-busy'));
    }

    render(data) {
      const t = this.t;
      // The customer's own language: the block's texts, chosen by the answer's status and reason.
      if (data.status === 'unavailable') return this.say(t.textUnavailable);
      if (data.status === 'not_enrolled') {
        this.say((data.reason === 'no_email' && t.textNoEmail) || (data.reason === 'inactive' && t.textInactive) || (data.reason === 'unverified_email' && t.textUnverifiedEmail) || t.textNotEnrolled);
        return;
      }
      if (data.status !== 'ok') throw new Error('Unexpected answer');

      const ambassador = data.ambassador || {};
      const shown = ambassador.display || {};
      const pointName = ambassador.pointName;
      const showBalances = t.showBalances === 'true';
      // Only web links are shown; anything else (javascript:, empty) is dropped.
      const links = (Array.isArray(data.links) ? data.links : []).filter((link) => link && /^https?:\/\//i.test(str(link.url)));

      if (showBalances && data.ambassador) {
        const summary = el('dl', 'referral-links__summary');
        this.stat(summary, t.textBalance, this.money(ambassador.balanceMoney || '0', shown.balanceMoney), this.points(ambassador.balancePoints, pointName, shown.balancePoints));
        this.stat(summary, t.textPaid, this.money(ambassador.moneyPaid || '0', shown.moneyPaid), this.points(ambassador.pointsPaid, pointName, shown.pointsPaid));
        this.stat(summary, t.textReferrals, str(ambassador.uniqueReferrals) || '0');
        this.root.appendChild(summary);
      }

      if (links.length === 0) {
        this.say(t.textEmpty);
        return;
      }
      this.say('');
      const list = el('ul', 'referral-links__list');
      for (const link of links) list.appendChild(this.card(link, showBalances, pointName));
      this.root.appendChild(list);
    }

    stat(list, label, value, detail) {
      const item = el('div', 'referral-links__stat');
      item.appendChild(el('dt', 'referral-links__stat-label', label));
      const dd = el('dd', 'referral-links__stat-value', value);
      if (detail) dd.appendChild(el('span', 'referral-links__stat-detail', detail));
      item.appendChild(dd);
      list.appendChild(item);
    }

    card(link, showBalances, pointName) {
      const t = this.t;
      const id = `referral-link-${++counter}`;
      const url = str(link.url);
      const name = str(link.campaignName);
      const description = str(link.description);
      const card = el('li', 'referral-links__card');

      const title = el('h3', 'referral-links__campaign', name);
      title.id = `${id}-title`;
      card.appendChild(title);
      if (description) card.appendChild(el('p', 'referral-links__description', description));

      const label = el('label', 'referral-links__label', t.textLinkLabel);
      label.id = `${id}-label`;
      label.htmlFor = id;
      card.appendChild(label);

      const row = el('div', 'referral-links__row');
      const input = el('input', 'referral-links__url');
      input.type = 'text';
      input.id = id;
      input.readOnly = true;
      input.value = url;
      input.setAttribute('aria-labelledby', name ? `${label.id} ${title.id}` : label.id);
      input.addEventListener('focus', () => input.select());
      const button = el('button', 'referral-links__button referral-links__copy', t.textCopy);
      button.type = 'button';
      const feedback = el('span', 'referral-links__feedback');
      feedback.setAttribute('role', 'status');
      feedback.setAttribute('aria-live', 'polite');
      button.addEventListener('click', this.copier(input, button, feedback));
      row.append(input, button);
      card.append(row, feedback);

      const share = el('div', 'referral-links__share');
      const message = t.textShareMessage;
      const mail = el('a', 'referral-links__share-link', t.textShareEmail);
      mail.href = `mailto:?subject=${encodeURIComponent(t.textEmailSubject)}&body=${encodeURIComponent(`${message}\n\n${url}`)}`;
      share.appendChild(mail);
      if (flag(link.socialEnabled)) {
        const network = SOCIAL[t.socialNetwork] ? t.socialNetwork : 'x';
        const text = t[`textShare${network.charAt(0).toUpperCase()}${network.slice(1)}`];
        const social = el('a', 'referral-links__share-link', text);
        social.href = SOCIAL[network](url, message);
        social.target = '_blank';
        social.rel = 'noopener noreferrer';
        social.appendChild(el('span', 'referral-links__visually-hidden', ` ${t.textNewWindow}`));
        share.appendChild(social);
      }
      card.appendChild(share);

      if (showBalances) {
        const earned = el('p', 'referral-links__earned', `${t.textEarned} `);
        const shown = link.display || {};
        const amounts = `${this.money(link.totalMoneyEarned || '0', shown.totalMoneyEarned)} · ${this.points(link.totalPointsEarned, pointName, shown.totalPointsEarned)}`;
        earned.appendChild(el('strong', null, amounts));
        card.appendChild(earned);
      }
      return card;
    }

    copier(input, button, feedback) {
      const t = this.t;
      let timer;
      const done = (ok) => {
        button.textContent = ok ? t.textCopied : t.textCopy;
        feedback.textContent = ok ? t.textCopied : t.textCopyFailed;
        // On success the button says it; the live region only announces it.
        feedback.classList.toggle('referral-links__visually-hidden', ok);
        if (!ok) input.select();
        clearTimeout(timer);
        timer = setTimeout(() => {
          button.textContent = t.textCopy;
          feedback.textContent = '';
        }, FEEDBACK_MS);
      };
      // Older browsers and insecure contexts: copy the selected text the old way.
      const fallback = () => {
        try {
          input.focus();
          input.setSelectionRange(0, input.value.length);
          return document.execCommand('copy');
        } catch {
          return false;
        }
      };
      return () => {
        const clipboard = navigator.clipboard;
        if (clipboard && clipboard.writeText) {
          clipboard.writeText(input.value).then(() => done(true), () => done(fallback()));
        } else {
          done(fallback());
        }
      };
    }
  }

  const start = (scope) => {
    for (const root of scope.querySelectorAll('[data-referral-links]')) {
      if (root.hasAttribute('data-referral-started')) continue;
      root.setAttribute('data-referral-started', '');
      try {
        new ReferralLinks(root).load();
      } catch {
        // Never break the theme.
      }
    }
  };

  start(document);
  // The theme editor re-renders sections without a page load.
  document.addEventListener('shopify:section:load', (event) => start(event.target));
})();
