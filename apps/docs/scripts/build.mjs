console.log('docs build placeholder')
