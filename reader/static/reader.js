// Progressive enhancement of reader pages; each page works fully without
// it. It adds a copy button to code blocks, focuses the search box on "/",
// and closes an open menu on Escape or a click elsewhere.
(() => {
  'use strict';

  if (navigator.clipboard) {
    for (const block of document.querySelectorAll('.code')) {
      const pre = block.querySelector('pre');
      if (!pre) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = 'Copy';
      button.addEventListener('click', async () => {
        try {
          await navigator.clipboard.writeText(pre.innerText.replace(/\n$/, ''));
          button.textContent = 'Copied';
        } catch {
          button.textContent = 'Copy failed';
        }
        button.dataset.copied = '';
        setTimeout(() => {
          button.textContent = 'Copy';
          delete button.dataset.copied;
        }, 2000);
      });
      block.append(button);
    }
  }

  const menus = () => document.querySelectorAll('details.menu[open]');

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      for (const menu of menus()) {
        const inside = menu.contains(document.activeElement);
        menu.open = false;
        if (inside) menu.querySelector('summary').focus();
      }
      return;
    }
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) return;
    // The search page's own box first, then the header's.
    const box = document.querySelector('main input[type=search]') || document.querySelector('input[type=search]');
    if (!box) return;
    e.preventDefault();
    box.focus();
    box.select();
  });

  document.addEventListener('click', (e) => {
    for (const menu of menus()) {
      if (!menu.contains(e.target)) menu.open = false;
    }
  });
})();
