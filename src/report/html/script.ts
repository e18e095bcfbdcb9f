/**
 * The page's only script, inlined: verdict filters and expand/collapse of
 * evidence. It reads nothing from the report data, so hostile evidence can
 * never reach script context.
 */
export const SCRIPT = `
(function(){
  var buttons=document.querySelectorAll('[data-filter]');
  var rows=document.querySelectorAll('tr[data-verdict]');
  function apply(f){
    buttons.forEach(function(b){b.setAttribute('aria-pressed',String(b.getAttribute('data-filter')===f));});
    rows.forEach(function(r){
      var v=r.getAttribute('data-verdict');
      var show=f==='all'||(f==='failing'?(v==='FAIL'||v==='ERROR'):v===f);
      r.classList.toggle('hidden',!show);
    });
  }
  buttons.forEach(function(b){b.addEventListener('click',function(){apply(b.getAttribute('data-filter'));});});
  var toggle=document.getElementById('toggle-evidence');
  if(toggle){toggle.addEventListener('click',function(){
    var all=document.querySelectorAll('details.evidence');
    var open=toggle.getAttribute('data-open')!=='true';
    all.forEach(function(d){d.open=open;});
    toggle.setAttribute('data-open',String(open));
    toggle.textContent=open?'Collapse all evidence':'Expand all evidence';
  });}
})();
`;
